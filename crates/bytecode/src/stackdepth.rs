//! `co_stacksize`: the deepest the value stack gets on any path, found by walking the control flow
//! from the entry and from every exception handler that covers a reachable instruction.

use crate::error::{BytecodeError, ErrorKind, Result};
use crate::opcode::{Flow, OpInfo};
use crate::version::PyVersion;

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

/// Deeper than this is refused outright.
const DEPTH_LIMIT: i64 = 1 << 20;

/// How often an instruction may be reached deeper than before. In code a compiler writes every path
/// reaches an instruction at one depth; a rise beyond the few that dead-code guesses explain is a loop
/// that pushes without popping, refused here rather than walked to [`DEPTH_LIMIT`].
const MAX_RISES: u8 = 4;

#[cold]
#[inline(never)]
fn error(ins: &FlowInstr, message: impl Into<String>) -> BytecodeError {
    BytecodeError::new(ErrorKind::StackDepth, message)
        .at(ins.offset)
        .item(ins.item)
        .op(ins.op.name)
}

struct Walk<'a> {
    instrs: &'a [FlowInstr],
    /// The handler and its entry depth for each instruction an exception range covers.
    cover: Vec<Option<(usize, i64)>>,
    /// Deepest entry depth seen per instruction; -1 before it is reached.
    depth_in: Vec<i64>,
    /// Times each instruction was reached deeper than before.
    rises: Vec<u8>,
    work: Vec<usize>,
    max: i64,
    /// Walking code no path reaches, from guessed depths: an underflow ends the run, not the walk.
    dead: bool,
}

impl Walk<'_> {
    /// Record that `i` is reached at depth `d`; true if that is deeper than before (walk on from it).
    #[inline]
    fn reach(&mut self, i: usize, d: i64, from: &FlowInstr) -> Result<bool> {
        if d > DEPTH_LIMIT {
            return Err(error(from, "the stack grows without bound around a loop"));
        }
        if i >= self.depth_in.len() || d <= self.depth_in[i] {
            return Ok(false);
        }
        if self.depth_in[i] >= 0 {
            self.rises[i] += 1;
            if self.rises[i] > MAX_RISES {
                return Err(error(
                    from,
                    "the stack depth differs between paths (a loop that keeps pushing)",
                ));
            }
        }
        self.depth_in[i] = d;
        Ok(true)
    }

    #[inline]
    fn push(&mut self, i: usize, d: i64, from: &FlowInstr) -> Result<()> {
        if self.reach(i, d, from)? {
            self.work.push(i);
        }
        Ok(())
    }

    /// Walk from every instruction in the work list until nothing deeper is found.
    fn run(&mut self) -> Result<()> {
        let n = self.instrs.len();
        while let Some(mut i) = self.work.pop() {
            let mut d = self.depth_in[i];
            loop {
                let ins = self.instrs[i];
                if let Some(&Some((h, hd))) = self.cover.get(i) {
                    self.push(h, hd, &ins)?;
                }
                let after = d + i64::from(ins.op.stack_effect(ins.arg, Some(false)));
                if after < 0 {
                    if self.dead {
                        break;
                    }
                    return Err(error(
                        &ins,
                        format!(
                            "stack underflow: {} finds {} value(s) on the stack",
                            ins.op.name, d
                        ),
                    ));
                }
                self.max = self.max.max(d.max(after) + i64::from(ins.op.peak));
                if let Some(t) = ins.target {
                    let jd = d + i64::from(ins.op.stack_effect(ins.arg, Some(true)));
                    if jd >= 0 {
                        self.max = self.max.max(jd);
                        self.push(t, jd, &ins)?;
                    } else if !self.dead {
                        return Err(error(&ins, "stack underflow on the jump"));
                    }
                }
                if matches!(ins.op.flow, Flow::Jump | Flow::Exit) {
                    break;
                }
                if i + 1 >= n {
                    if self.dead {
                        break;
                    }
                    return Err(error(
                        &ins,
                        "execution falls off the end of the code after this instruction",
                    ));
                }
                // Go on in line while the next instruction has not been reached this deep already.
                if !self.reach(i + 1, after, &ins)? {
                    break;
                }
                i += 1;
                d = after;
            }
        }
        Ok(())
    }

    /// The least depth at which the straight-line run from `i` does not underflow.
    fn least_entry_depth(&self, i: usize) -> i64 {
        let mut height = 0i64;
        let mut need = 0i64;
        for ins in &self.instrs[i..] {
            if ins.target.is_some() {
                need = need.max(-(height + i64::from(ins.op.stack_effect(ins.arg, Some(true)))));
            }
            height += i64::from(ins.op.stack_effect(ins.arg, Some(false)));
            need = need.max(-height);
            if matches!(ins.op.flow, Flow::Jump | Flow::Exit) {
                break;
            }
        }
        need
    }
}

/// The maximum stack depth. `handlers` are `(first, end, handler, entry depth)` ranges of instruction
/// indices (end exclusive): an instruction in the range may jump to `handler` with that depth.
pub fn stack_depth(
    version: PyVersion,
    instrs: &[FlowInstr],
    handlers: &[(usize, usize, usize, u32)],
) -> Result<u32> {
    walk(version, instrs, handlers).map(|(max, _)| max)
}

/// [`stack_depth`], and the depth before each instruction (`None`: reached by no path, and not sized).
pub fn walk(
    version: PyVersion,
    instrs: &[FlowInstr],
    handlers: &[(usize, usize, usize, u32)],
) -> Result<(u32, Vec<Option<u32>>)> {
    let (max, depth_in) = walk_in(version, instrs, handlers)?;
    let depths = depth_in.iter().map(|&d| u32::try_from(d).ok()).collect();
    Ok((max, depths))
}

/// [`walk`] with the depth before each instruction as walked (negative: not reached).
pub(crate) fn walk_in(
    version: PyVersion,
    instrs: &[FlowInstr],
    handlers: &[(usize, usize, usize, u32)],
) -> Result<(u32, Vec<i64>)> {
    let n = instrs.len();
    let floor = version.info().min_stacksize;
    if n == 0 {
        return Ok((floor, Vec::new()));
    }
    // (no handler, as in most code: no list of the instructions they cover)
    let mut cover: Vec<Option<(usize, i64)>> = if handlers.is_empty() {
        Vec::new()
    } else {
        vec![None; n]
    };
    for &(first, end, handler, depth) in handlers {
        for slot in cover.iter_mut().take(end.min(n)).skip(first) {
            *slot = Some((handler, i64::from(depth)));
        }
    }
    let mut w = Walk {
        instrs,
        cover,
        depth_in: vec![-1; n],
        rises: vec![0; n],
        work: Vec::new(),
        max: 0,
        dead: false,
    };
    // A 3.10 generator starts with GEN_START, which pops the value of the first send(): the frame
    // starts with that value on the stack. (3.11+ push it at RETURN_GENERATOR, in the opcode table.)
    let entry = i64::from(instrs[0].op.name == "GEN_START");
    w.push(0, entry, &instrs[0])?;
    let mut cursor = 0usize;
    loop {
        w.run()?;
        // Code no path reaches: CPython sized the stack before some of it became dead (a handler whose
        // protected range was optimised to nothing keeps its code but loses its table entry), so it
        // counts too. Its entry depth is gone; the least depth that does not underflow is a lower bound.
        if !version.info().sizes_dead_code {
            break;
        }
        while cursor < n && w.depth_in[cursor] >= 0 {
            cursor += 1;
        }
        if cursor == n {
            break;
        }
        w.dead = true;
        let d = w.least_entry_depth(cursor);
        w.push(cursor, d, &instrs[cursor])?;
    }
    Ok((
        u32::try_from(w.max).unwrap_or(u32::MAX).max(floor),
        w.depth_in,
    ))
}
