//! `assemble::instruction_depths` reads the stack depth before each instruction from the order of
//! the instructions, without laying the code out; here it is compared with the assembler's way
//! (collect, lay out, walk: `assemble::laid_out_depths`) on every code object of the checked-in
//! `.pyc` fixtures (every version), on the bytecode fuzz corpus (odd inputs: padded prefixes,
//! handlers, dead code), and on jumps that point the wrong way for their direction.

use std::path::{Path, PathBuf};

use framejit_bytecode::assemble::{instruction_depths, laid_out_depths};
use framejit_bytecode::marshal::{CodeObject, Obj, RefTable, Value};
use framejit_bytecode::opcode::table;
use framejit_bytecode::{decode, pyc, Arg, Bytecode, CodeTables, Instr, Item, PyVersion};

fn same(bc: &Bytecode, what: &str) -> bool {
    let fast = instruction_depths(bc);
    let slow = laid_out_depths(bc);
    match (&fast, &slow) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{what}: depths differ"),
        (Err(_), Err(_)) => {}
        _ => panic!("{what}: one way refuses, the other not: {fast:?} / {slow:?}"),
    }
    fast.is_ok()
}

fn walk<'a>(refs: &RefTable<'a>, v: &'a Value, out: &mut Vec<&'a CodeObject>) {
    let Some(c) = refs.resolve(v).as_code() else {
        return;
    };
    out.push(c);
    for k in c.consts(refs).expect("co_consts is a tuple") {
        let k = refs.resolve(k);
        if k.as_code().is_some() {
            walk(refs, k, out);
        } else if matches!(
            k.obj,
            Obj::SmallTuple(_) | Obj::Tuple(_) | Obj::FrozenSet(_)
        ) {
            for x in k.as_seq().unwrap_or_default() {
                walk(refs, x, out);
            }
        }
    }
}

#[test]
fn depths_match_the_laid_out_walk_on_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/marshal");
    let mut walked = 0;
    for v in PyVersion::ALL {
        let dir = root.join(v.to_string());
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("fixture dir")
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "pyc"))
            .collect();
        files.sort();
        for f in files {
            let data = std::fs::read(&f).expect("read fixture");
            let p = pyc::read(&data).expect("pyc");
            let refs = RefTable::build(&p.code);
            let mut codes = Vec::new();
            walk(&refs, &p.code, &mut codes);
            for c in codes {
                let tables = CodeTables {
                    code: c.code_bytes(&refs).expect("co_code"),
                    linetable: c.line_table(&refs).expect("line table"),
                    exceptiontable: c.exception_table(&refs).unwrap_or(&[]),
                    first_line: c.firstlineno,
                };
                let bc = decode(v, tables).expect("decodes");
                walked += usize::from(same(&bc, &f.display().to_string()));
            }
        }
    }
    assert!(walked > 100, "only {walked} code objects walked");
}

#[test]
fn depths_match_the_laid_out_walk_on_fuzz_corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/bytecode_roundtrip");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus dir")
        .map(|e| e.expect("dir entry").path())
        .collect();
    files.sort();
    let mut decoded = 0;
    for f in files {
        // (the layout of fuzz_entry's input: version byte, two lengths, code, line table, rest)
        let data = std::fs::read(&f).expect("read");
        let Some((&v, rest)) = data.split_first() else {
            continue;
        };
        if rest.len() < 4 {
            continue;
        }
        let version = PyVersion::ALL[usize::from(v) % PyVersion::ALL.len()];
        let code_len = usize::from(u16::from_le_bytes([rest[0], rest[1]])).min(rest.len() - 4);
        let lt_len =
            usize::from(u16::from_le_bytes([rest[2], rest[3]])).min(rest.len() - 4 - code_len);
        let (code, tail) = rest[4..].split_at(code_len);
        let (linetable, exceptiontable) = tail.split_at(lt_len);
        let tables = CodeTables {
            code,
            linetable,
            exceptiontable,
            first_line: 1,
        };
        if let Ok(bc) = decode(version, tables) {
            decoded += 1;
            same(&bc, &f.display().to_string());
        }
    }
    assert!(decoded > 0);
}

fn instr(v: PyVersion, name: &str, arg: Arg) -> Item {
    let op = table(v).by_name(name).expect("opcode");
    Item::Instr(Instr::new(op, arg, Default::default()))
}

#[test]
fn jump_the_wrong_way_turns_round_or_is_refused() {
    // 3.11: JUMP_FORWARD to an earlier label becomes JUMP_BACKWARD, as the layout turns it
    let v = PyVersion::V3_11;
    let mut bc = Bytecode::new(v, 1);
    let top = bc.new_label();
    let out = bc.new_label();
    bc.items.push(instr(v, "NOP", Arg::Raw(0)));
    bc.items.push(Item::Label(top));
    bc.items.push(instr(v, "LOAD_FAST", Arg::Raw(0)));
    bc.items
        .push(instr(v, "POP_JUMP_BACKWARD_IF_TRUE", Arg::Jump(out)));
    bc.items.push(instr(v, "JUMP_FORWARD", Arg::Jump(top)));
    bc.items.push(Item::Label(out));
    bc.items.push(instr(v, "LOAD_CONST", Arg::Raw(0)));
    bc.items.push(instr(v, "RETURN_VALUE", Arg::Raw(0)));
    assert!(same(&bc, "3.11 turned jumps"));
    assert_eq!(
        instruction_depths(&bc).expect("walks")[6],
        Some(0),
        "the turned conditional jump reaches its target"
    );
    // 3.8 has no backward form of JUMP_FORWARD: refused both ways
    let v = PyVersion::V3_8;
    let mut bc = Bytecode::new(v, 1);
    let top = bc.new_label();
    bc.items.push(Item::Label(top));
    bc.items.push(instr(v, "NOP", Arg::Raw(0)));
    bc.items.push(instr(v, "JUMP_FORWARD", Arg::Jump(top)));
    assert!(!same(&bc, "3.8 backward JUMP_FORWARD"));
}

#[test]
fn jump_effects_are_constant() {
    // (what lets the depths be walked with a jump's argument unknown)
    for v in PyVersion::ALL {
        for op in table(v).ops.iter().filter(|o| o.is_jump()) {
            assert!(
                op.effect.terms.is_empty() && op.jump_effect.terms.is_empty(),
                "{v} {}: a jump whose stack effect depends on its argument",
                op.name
            );
        }
    }
}
