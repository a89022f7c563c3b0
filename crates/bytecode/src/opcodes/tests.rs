//! Consistency checks on every generated table, and spot checks of facts verified in the interpreters.
//!
//! Spot checks cite how the fact was verified: "dis probe" means tools/gen_opcodes.py disassembled a
//! synthetic code object holding the instruction under that interpreter and `dis` agreed;
//! "stack_effect" means `dis.stack_effect(...)` printed that value under that interpreter.

use crate::opcode::{
    table, ArgKind, Flow, Jump, JumpDir, JumpUnit, OpInfo, OpKind, OpcodeTable, NO_OP,
};
use crate::version::PyVersion;

fn op(t: &OpcodeTable, name: &str) -> &'static OpInfo {
    match t.by_name(name) {
        Some(op) => op,
        None => panic!("{}: no opcode {name}", t.version),
    }
}

fn jump(dir: JumpDir, unit: JumpUnit) -> ArgKind {
    ArgKind::Jump(Jump { dir, unit })
}

#[test]
fn tables_are_generated_for_their_version() {
    for v in PyVersion::ALL {
        let t = table(v);
        assert_eq!(t.version, v);
        assert!(
            t.generated_from.starts_with(&format!("3.{}.", v.minor())),
            "{v}: {}",
            t.generated_from
        );
        assert!(!t.ops.is_empty(), "{v}: empty table");
    }
}

#[test]
fn extended_arg_exists_with_int_arg() {
    for v in PyVersion::ALL {
        let t = table(v);
        let ext = t
            .op(t.extended_arg)
            .unwrap_or_else(|| panic!("{v}: no EXTENDED_ARG"));
        assert_eq!(ext.name, "EXTENDED_ARG");
        assert_eq!(ext.arg, ArgKind::Int);
        assert_eq!(ext.kind, OpKind::Real);
    }
}

#[test]
fn by_name_is_sorted_and_complete() {
    for v in PyVersion::ALL {
        let t = table(v);
        assert_eq!(t.by_name.len(), t.ops.len(), "{v}");
        let mut seen = vec![false; t.ops.len()];
        for &i in t.by_name {
            assert!(
                !std::mem::replace(&mut seen[usize::from(i)], true),
                "{v}: index {i} twice"
            );
        }
        for w in t.by_name.windows(2) {
            let (a, b) = (t.ops[usize::from(w[0])].name, t.ops[usize::from(w[1])].name);
            assert!(a < b, "{v}: {a} before {b}");
        }
        for o in t.ops {
            assert_eq!(
                t.by_name(o.name).map(|x| x.code),
                Some(o.code),
                "{v}: {}",
                o.name
            );
        }
        assert!(t.by_name("NO_SUCH_OPCODE").is_none());
    }
}

#[test]
fn by_code_matches_ops() {
    for v in PyVersion::ALL {
        let t = table(v);
        for (byte, &i) in t.by_code.iter().enumerate() {
            if i == NO_OP {
                continue;
            }
            let o = &t.ops[usize::from(i)];
            assert_eq!(usize::from(o.code), byte, "{v}: {}", o.name);
            assert!(
                !matches!(o.kind, OpKind::Pseudo { .. }),
                "{v}: pseudo {} in by_code",
                o.name
            );
        }
        for o in t.ops {
            match o.kind {
                OpKind::Pseudo { .. } => assert!(o.code >= 256, "{v}: pseudo {} below 256", o.name),
                _ => {
                    let byte = u8::try_from(o.code)
                        .unwrap_or_else(|_| panic!("{v}: {} above 255", o.name));
                    assert_eq!(t.op(byte).map(|x| x.name), Some(o.name), "{v}");
                }
            }
        }
    }
}

#[test]
fn bases_and_targets_are_real_ops() {
    for v in PyVersion::ALL {
        let t = table(v);
        let real = |code: u16| {
            u8::try_from(code)
                .ok()
                .and_then(|b| t.op(b))
                .is_some_and(|o| o.kind == OpKind::Real)
        };
        for o in t.ops {
            match o.kind {
                OpKind::Specialized { base } => {
                    assert!(v >= PyVersion::V3_11, "{v}: specialised {}", o.name);
                    assert!(real(base), "{v}: {} has base {base}", o.name);
                    let b = t.deopt(o);
                    assert_eq!(
                        (b.arg, b.caches, b.flow),
                        (o.arg, o.caches, o.flow),
                        "{v}: {}",
                        o.name
                    );
                }
                OpKind::Instrumented { base } => {
                    assert!(v >= PyVersion::V3_12, "{v}: instrumented {}", o.name);
                    if let Some(base) = base {
                        assert!(real(base), "{v}: {} has base {base}", o.name);
                        assert_eq!(t.deopt(o).caches, o.caches, "{v}: {}", o.name);
                    }
                }
                OpKind::Pseudo { targets } => {
                    assert!(v >= PyVersion::V3_12, "{v}: pseudo {}", o.name);
                    assert!(
                        targets.iter().all(|&c| real(c)),
                        "{v}: {} targets {targets:?}",
                        o.name
                    );
                }
                OpKind::Real => {}
            }
        }
    }
}

#[test]
fn flow_agrees_with_arg() {
    for v in PyVersion::ALL {
        let t = table(v);
        for o in t.ops {
            match o.flow {
                Flow::Branch | Flow::Jump => {
                    assert!(o.is_jump(), "{v}: {} flows to a target", o.name)
                }
                Flow::Next => assert!(!o.is_jump(), "{v}: jump {} only falls through", o.name),
                Flow::Exit => {}
            }
            if let Some(j) = o.jump() {
                let unit = if v <= PyVersion::V3_9 {
                    JumpUnit::Bytes
                } else {
                    JumpUnit::CodeUnits
                };
                assert_eq!(j.unit, unit, "{v}: {}", o.name);
            }
            if v < PyVersion::V3_11 {
                assert_eq!(o.caches, 0, "{v}: {}", o.name);
            }
        }
    }
}

#[test]
fn cache_and_have_argument() {
    for v in PyVersion::ALL {
        let t = table(v);
        if v >= PyVersion::V3_11 {
            let cache = t.cache.unwrap_or_else(|| panic!("{v}: no CACHE"));
            assert_eq!(t.op(cache).map(|o| o.name), Some("CACHE"));
        } else {
            assert_eq!(t.cache, None);
        }
        // opcode.HAVE_ARGUMENT is a real threshold only up to 3.12.
        if v <= PyVersion::V3_12 {
            let have = t
                .have_argument
                .unwrap_or_else(|| panic!("{v}: no HAVE_ARGUMENT"));
            for o in t.ops.iter().filter(|o| o.kind == OpKind::Real) {
                assert_eq!(o.has_arg(), o.code >= u16::from(have), "{v}: {}", o.name);
            }
        } else {
            assert_eq!(t.have_argument, None);
        }
    }
}

#[test]
fn spot_checks_3_8_to_3_10() {
    let t = table(PyVersion::V3_8);
    // dis probe (3.8.18): JUMP_ABSOLUTE's target is the argument in bytes; JUMP_FORWARD is relative.
    let ja = op(t, "JUMP_ABSOLUTE");
    assert_eq!(ja.arg, jump(JumpDir::Absolute, JumpUnit::Bytes));
    assert_eq!(ja.flow, Flow::Jump);
    assert_eq!(
        op(t, "JUMP_FORWARD").arg,
        jump(JumpDir::Forward, JumpUnit::Bytes)
    );
    assert_eq!(op(t, "CALL_FINALLY").flow, Flow::Branch);
    assert_eq!(op(t, "RETURN_VALUE").flow, Flow::Exit);
    assert!(t.by_name("RERAISE").is_none());
    // stack_effect (3.8.18): MAKE_FUNCTION 15 -> -5, UNPACK_EX 0x102 -> 3, FOR_ITER 1 / -1,
    // SETUP_FINALLY jump -> 6, BUILD_SLICE 2 -> -1 and 3 -> -2.
    assert_eq!(op(t, "MAKE_FUNCTION").stack_effect(15, Some(false)), -5);
    assert_eq!(op(t, "UNPACK_EX").stack_effect(0x102, Some(false)), 3);
    let fi = op(t, "FOR_ITER");
    assert_eq!(
        (
            fi.stack_effect(0, Some(false)),
            fi.stack_effect(0, Some(true))
        ),
        (1, -1)
    );
    assert_eq!(fi.stack_effect(0, None), 1);
    assert_eq!(op(t, "SETUP_FINALLY").stack_effect(0, Some(true)), 6);
    let bs = op(t, "BUILD_SLICE");
    assert_eq!(
        (bs.stack_effect(2, None), bs.stack_effect(3, None)),
        (-1, -2)
    );
    assert_eq!(
        op(t, "COMPARE_OP").arg,
        ArgKind::Named {
            names: crate::opcodes::v3_8::CMP_OP,
            shift: 0
        }
    );

    // RERAISE arrives in 3.9 and never falls through (compile.c stackdepth()).
    assert_eq!(op(table(PyVersion::V3_9), "RERAISE").flow, Flow::Exit);
    // dis probe (3.10.13): jump arguments count code units from 3.10.
    let t = table(PyVersion::V3_10);
    assert_eq!(
        op(t, "JUMP_ABSOLUTE").arg,
        jump(JumpDir::Absolute, JumpUnit::CodeUnits)
    );
    assert_eq!(
        op(t, "FOR_ITER").arg,
        jump(JumpDir::Forward, JumpUnit::CodeUnits)
    );
}

#[test]
fn spot_checks_3_11() {
    let t = table(PyVersion::V3_11);
    // _inline_cache_entries (3.11.7): BINARY_OP 1, LOAD_GLOBAL 5, LOAD_ATTR 4, CALL 4.
    let bo = op(t, "BINARY_OP");
    assert_eq!(bo.caches, 1);
    // dis probe: argrepr of BINARY_OP 0 is "+", of 13 "+=".
    match bo.arg {
        ArgKind::Named { names, shift: 0 } => assert_eq!((names[0], names[13]), ("+", "+=")),
        other => panic!("BINARY_OP arg {other:?}"),
    }
    // dis probe: LOAD_GLOBAL's name is co_names[arg >> 1]; stack_effect 1 -> 2, 0 -> 1.
    let lg = op(t, "LOAD_GLOBAL");
    assert_eq!(lg.arg, ArgKind::Name { shift: 1 });
    assert_eq!((lg.stack_effect(1, None), lg.stack_effect(0, None)), (2, 1));
    assert_eq!(
        op(t, "JUMP_BACKWARD").arg,
        jump(JumpDir::Backward, JumpUnit::CodeUnits)
    );
    assert_eq!(op(t, "POP_JUMP_BACKWARD_IF_TRUE").flow, Flow::Branch);
    assert_eq!(op(t, "JUMP_BACKWARD").flow, Flow::Jump);
    // A specialised form deopts to its base (opcode._specializations).
    let quick = op(t, "JUMP_BACKWARD_QUICK");
    assert_eq!(t.deopt(quick).name, "JUMP_BACKWARD");
    assert_eq!(op(t, "LOAD_GLOBAL_MODULE").caches, lg.caches);
}

#[test]
fn spot_checks_3_12() {
    let t = table(PyVersion::V3_12);
    // dis probe (3.12.1): FOR_ITER jumps forward from the end of its one cache entry.
    let fi = op(t, "FOR_ITER");
    assert_eq!(fi.arg, jump(JumpDir::Forward, JumpUnit::CodeUnits));
    assert_eq!((fi.caches, fi.flow), (1, Flow::Branch));
    // dis probe: LOAD_ATTR names co_names[arg >> 1], LOAD_SUPER_ATTR co_names[arg >> 2],
    // COMPARE_OP cmp_op[arg >> 4].
    assert_eq!(op(t, "LOAD_ATTR").arg, ArgKind::Name { shift: 1 });
    assert_eq!(op(t, "LOAD_ATTR").caches, 9);
    assert_eq!(op(t, "LOAD_SUPER_ATTR").arg, ArgKind::Name { shift: 2 });
    assert!(matches!(
        op(t, "COMPARE_OP").arg,
        ArgKind::Named { shift: 4, .. }
    ));
    // stack_effect: LOAD_SUPER_ATTR 0 -> -2, 1 -> -1.
    let lsa = op(t, "LOAD_SUPER_ATTR");
    assert_eq!(
        (lsa.stack_effect(0, None), lsa.stack_effect(1, None)),
        (-2, -1)
    );
    assert_eq!(op(t, "RETURN_CONST").flow, Flow::Exit);
    // opcode._pseudo_ops: JUMP becomes JUMP_FORWARD or JUMP_BACKWARD.
    let j = op(t, "JUMP");
    assert_eq!(j.flow, Flow::Jump);
    let want = [op(t, "JUMP_FORWARD").code, op(t, "JUMP_BACKWARD").code];
    match j.kind {
        OpKind::Pseudo { targets } => assert_eq!(targets, want),
        other => panic!("JUMP kind {other:?}"),
    }
    // Instrumented forms stand for their base; INSTRUMENTED_LINE for whatever it replaced.
    let ic = op(t, "INSTRUMENTED_CALL");
    assert_eq!(t.deopt(ic).name, "CALL");
    assert_eq!(
        ic.stack_effect(3, None),
        op(t, "CALL").stack_effect(3, None)
    );
    assert_eq!(
        op(t, "INSTRUMENTED_LINE").kind,
        OpKind::Instrumented { base: None }
    );
}

#[test]
fn spot_checks_3_13_and_3_14() {
    for v in [PyVersion::V3_13, PyVersion::V3_14] {
        let t = table(v);
        // dis probe: LOAD_FAST_LOAD_FAST shows (varnames[arg >> 4], varnames[arg & 15]); COMPARE_OP
        // cmp_op[arg >> 5]; stack_effect(LOAD_FAST_LOAD_FAST, 0x12) == 2.
        let lflf = op(t, "LOAD_FAST_LOAD_FAST");
        assert_eq!(lflf.arg, ArgKind::LocalPair);
        assert_eq!(lflf.stack_effect(0x12, None), 2);
        assert!(matches!(
            op(t, "COMPARE_OP").arg,
            ArgKind::Named { shift: 5, .. }
        ));
        // 3.13 gave JUMP_BACKWARD and the conditional jumps one cache entry.
        let jb = op(t, "JUMP_BACKWARD");
        assert_eq!(
            (jb.arg, jb.caches),
            (jump(JumpDir::Backward, JumpUnit::CodeUnits), 1)
        );
        assert_eq!(op(t, "POP_JUMP_IF_FALSE").caches, 1);
        match op(t, "CALL_INTRINSIC_1").arg {
            ArgKind::Named { names, .. } => assert_eq!(names[1], "INTRINSIC_PRINT"),
            other => panic!("{v}: CALL_INTRINSIC_1 arg {other:?}"),
        }
        assert_eq!(op(t, "RERAISE").flow, Flow::Exit);
    }
    assert_eq!(op(table(PyVersion::V3_13), "RETURN_CONST").flow, Flow::Exit);
    let t = table(PyVersion::V3_14);
    // 3.14 dropped RETURN_CONST; LOAD_SPECIAL and LOAD_COMMON_CONSTANT name fixed lists.
    assert!(t.by_name("RETURN_CONST").is_none());
    assert_eq!(
        op(t, "LOAD_FAST_BORROW_LOAD_FAST_BORROW").arg,
        ArgKind::LocalPair
    );
    match op(t, "LOAD_SPECIAL").arg {
        ArgKind::Named { names, .. } => assert_eq!(names[0], "__enter__"),
        other => panic!("LOAD_SPECIAL arg {other:?}"),
    }
    match op(t, "LOAD_COMMON_CONSTANT").arg {
        ArgKind::Named { names, .. } => assert_eq!(names[0], "AssertionError"),
        other => panic!("LOAD_COMMON_CONSTANT arg {other:?}"),
    }
    // dis probe (3.14): END_ASYNC_FOR's target is backward; it is a Branch, not an exit.
    assert_eq!(
        op(t, "END_ASYNC_FOR").arg,
        jump(JumpDir::Backward, JumpUnit::CodeUnits)
    );
}

/// An opcode's id names it the same in every version: `ids::NAMES` at the id is its name.
#[test]
fn ids_name_the_same_opcode_in_every_version() {
    for v in PyVersion::ALL {
        for op in table(v).ops {
            assert_eq!(
                super::ids::NAMES.get(usize::from(op.id)).copied(),
                Some(op.name),
                "{v}: {}",
                op.name
            );
        }
    }
}
