//! Straight-line code: a code object with no jump, no exception range and no exit before its last
//! instruction is one basic block with no edge (about half the code objects of a typical module:
//! small functions, lambdas, class bodies). `Structurer::new` makes that block directly instead of
//! through `Cfg::build`, post-dominators, loops, reachability and the assembler's stack walk, whose
//! results on such a graph are known: the block is the whole code, it reaches nothing and nothing
//! reaches it, it is no loop, it is post-dominated by the exit alone, and it is reached from the
//! entry. The statements then come from the same structurer and the same symbolic run as any other
//! code object's: only the graph's set-up is skipped.

use framejit_bytecode::opcode::Flow;
use framejit_bytecode::opcodes::ids;
use framejit_bytecode::{Bytecode, Instr, Item};

use crate::flow::{Block, Cfg};

/// The one block of `bc` where `Cfg::build` would make exactly one block with no edge, else
/// `None`. `Cfg::build` starts a block at a label, at a change of exception range, after a jump,
/// an exit or POP_BLOCK, and at FOR_ITER, and gives a block edges for its last instruction's jump
/// target, its fall-through into a next block and its covering handler: with no label, no range,
/// no jump instruction anywhere, and no exit or POP_BLOCK before the last instruction, there is
/// one block, and none of those edges.
/// With the graph, the block's instructions in order (every item is one).
pub(super) fn single_block(bc: &Bytecode) -> Option<(Cfg, Vec<&Instr>)> {
    let n = bc.items.len();
    if n == 0 {
        return None;
    }
    let mut instrs = Vec::with_capacity(n);
    for (i, item) in bc.items.iter().enumerate() {
        let Item::Instr(ins) = item else {
            return None;
        };
        if ins.op.is_jump()
            || ins.target().is_some()
            || ins.op.id == ids::FOR_ITER
            || (i + 1 != n
                && (matches!(ins.op.flow, Flow::Exit | Flow::Jump) || ins.op.id == ids::POP_BLOCK))
        {
            return None;
        }
        instrs.push(ins);
    }
    let cfg = Cfg {
        blocks: vec![Block {
            instrs: (0..n).collect(),
            labels: Vec::new(),
            succs: Vec::new(),
            preds: Vec::new(),
            handler: None,
        }],
    };
    Some((cfg, instrs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use framejit_bytecode::PyVersion;

    fn code(version: PyVersion, names: &[&str]) -> Bytecode {
        let t = framejit_bytecode::opcode::table(version);
        let mut bc = Bytecode::new(version, 1);
        for n in names {
            let op = t.by_name(n).expect("opcode");
            let arg = if op.is_jump() {
                framejit_bytecode::Arg::Jump(framejit_bytecode::Label(0))
            } else {
                framejit_bytecode::Arg::Raw(0)
            };
            bc.items
                .push(Item::Instr(Instr::new(op, arg, Default::default())));
        }
        bc
    }

    /// Where the fast path takes a code object, its block is exactly the one `Cfg::build` makes.
    #[test]
    fn single_block_is_what_build_makes() {
        let v = PyVersion::V3_11;
        let cases: &[&[&str]] = &[
            &["RESUME", "LOAD_CONST", "RETURN_VALUE"],
            &[
                "RESUME",
                "LOAD_GLOBAL",
                "PRECALL",
                "CALL",
                "POP_TOP",
                "LOAD_CONST",
                "RETURN_VALUE",
            ],
            &["RESUME", "LOAD_FAST", "RAISE_VARARGS"],
            &["NOP", "NOP"],
        ];
        for names in cases {
            let bc = code(v, names);
            let (fast, instrs) = single_block(&bc).expect("straight-line");
            let built = Cfg::build(&bc);
            assert_eq!(fast.blocks, built.blocks, "{names:?}");
            assert!(instrs.iter().copied().eq(bc.instrs()), "{names:?}");
        }
    }

    /// Anything that would split the code or give its block an edge takes the general path.
    #[test]
    fn not_straight_line() {
        let v = PyVersion::V3_11;
        let cases: &[&[&str]] = &[
            &[],
            &[
                "RESUME",
                "LOAD_CONST",
                "RETURN_VALUE",
                "LOAD_CONST",
                "RETURN_VALUE",
            ],
            &[
                "RESUME",
                "LOAD_FAST",
                "POP_JUMP_FORWARD_IF_TRUE",
                "LOAD_CONST",
                "RETURN_VALUE",
            ],
            &["RESUME", "LOAD_FAST", "GET_ITER", "FOR_ITER"],
        ];
        for names in cases {
            let bc = code(v, names);
            assert!(single_block(&bc).is_none(), "{names:?}");
        }
        let mut bc = code(v, &["RESUME", "LOAD_CONST", "RETURN_VALUE"]);
        bc.items.insert(1, Item::Label(framejit_bytecode::Label(0)));
        assert!(single_block(&bc).is_none());
    }
}
