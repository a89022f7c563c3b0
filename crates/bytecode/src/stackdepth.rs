//! `co_stacksize`: the deepest the value stack gets on any path, found by walking the control flow
//! from the entry and from every exception handler that covers a reachable instruction.

use crate::error::{BytecodeError, ErrorKind, Result};
use crate::opcode::{Flow, OpInfo};

/// An instruction as the stack-depth walk sees it.
#[derive(Clone, Copy, Debug)]
pub struct FlowInstr {
    pub op: &'static OpInfo,
    pub arg: u32,
    /// Index of the instruction a jump goes to.
    pub target: Option<usize>,
    /// Byte offset, for error messages.
    pub offset: u32,
    /// Index of the item in the instruction list, for error messages.
    pub item: usize,
}

/// Deeper than this is taken as a loop that pushes without popping.
const DEPTH_LIMIT: i64 = 1 << 20;

/// The maximum stack depth. `handlers` are `(first, end, handler, entry depth)` ranges of instruction
/// indices (end exclusive): an instruction in the range may jump to `handler` with that depth.
pub fn stack_depth(instrs: &[FlowInstr], handlers: &[(usize, usize, usize, u32)]) -> Result<u32> {
    let n = instrs.len();
    if n == 0 {
        return Ok(0);
    }
    let mut cover: Vec<Option<(usize, i64)>> = vec![None; n];
    for &(first, end, handler, depth) in handlers {
        for slot in cover.iter_mut().take(end.min(n)).skip(first) {
            *slot = Some((handler, i64::from(depth)));
        }
    }
    let mut depth_in: Vec<i64> = vec![-1; n];
    let mut work: Vec<usize> = Vec::new();
    let mut max: i64 = 0;
    let push = |work: &mut Vec<usize>,
                depth_in: &mut Vec<i64>,
                i: usize,
                d: i64,
                from: &FlowInstr|
     -> Result<()> {
        if d > DEPTH_LIMIT {
            return Err(BytecodeError::new(
                ErrorKind::StackDepth,
                "the stack grows without bound around a loop",
            )
            .at(from.offset)
            .item(from.item)
            .op(from.op.name));
        }
        if i < depth_in.len() && d > depth_in[i] {
            depth_in[i] = d;
            work.push(i);
        }
        Ok(())
    };
    // A 3.10 generator starts with GEN_START, which pops the value of the first send(): the frame
    // starts with that value on the stack. (3.11+ push it at RETURN_GENERATOR, in the opcode table.)
    let entry = i64::from(instrs[0].op.name == "GEN_START");
    push(&mut work, &mut depth_in, 0, entry, &instrs[0])?;
    while let Some(start) = work.pop() {
        let mut i = start;
        let mut d = depth_in[i];
        loop {
            let ins = &instrs[i];
            max = max.max(d);
            if let Some((h, hd)) = cover[i] {
                push(&mut work, &mut depth_in, h, hd, ins)?;
            }
            let after = d + i64::from(ins.op.stack_effect(ins.arg, Some(false)));
            if after < 0 {
                return Err(BytecodeError::new(
                    ErrorKind::StackDepth,
                    format!(
                        "stack underflow: {} finds {} value(s) on the stack",
                        ins.op.name, d
                    ),
                )
                .at(ins.offset)
                .item(ins.item)
                .op(ins.op.name));
            }
            if let Some(t) = ins.target {
                let jd = d + i64::from(ins.op.stack_effect(ins.arg, Some(true)));
                if jd < 0 {
                    return Err(BytecodeError::new(
                        ErrorKind::StackDepth,
                        "stack underflow on the jump",
                    )
                    .at(ins.offset)
                    .item(ins.item)
                    .op(ins.op.name));
                }
                max = max.max(jd);
                push(&mut work, &mut depth_in, t, jd, ins)?;
            }
            max = max.max(after);
            match ins.op.flow {
                Flow::Jump | Flow::Exit => break,
                Flow::Next | Flow::Branch => {}
            }
            if i + 1 >= n {
                return Err(BytecodeError::new(
                    ErrorKind::StackDepth,
                    "execution falls off the end of the code after this instruction",
                )
                .at(ins.offset)
                .item(ins.item)
                .op(ins.op.name));
            }
            // Continue in line while the next instruction has not been reached deeper already.
            if after > depth_in[i + 1] {
                depth_in[i + 1] = after;
                i += 1;
                d = after;
            } else {
                break;
            }
        }
    }
    Ok(u32::try_from(max).unwrap_or(u32::MAX))
}
