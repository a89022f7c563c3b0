//! Which `if` clauses of a comprehension stand on a line of their own.
//!
//! The compiler's output depends on line numbers in one place that matters here: 3.12+ thread a
//! conditional jump on to the jump it targets only where both are on the same line (or the target
//! has none). A comprehension's `if` clause that fails jumps to the loop's jump back, which has the
//! line the comprehension starts on: on that line the jump is threaded (and then, jumping backward,
//! laid out as a jump over a copy of the jump back); on a line of its own it is not. Printing such
//! a clause on one line with the rest would recompile to the other layout, so the printer starts a
//! new line inside the brackets where the original did (a layout fact only: the meaning is the
//! same either way).

use super::Structurer;
use crate::flow::EdgeKind;
use framejit_bytecode::opcode::Flow;
use framejit_bytecode::Instr;

impl Structurer<'_> {
    /// Per `if` clause of the comprehension whose code is `blocks` (in layout order): whether the
    /// clause is on a line other than its loop's jump back. Conditional jumps that end an `if`
    /// clause are those that go to a jump back (not threaded) or fall into one (threaded, which
    /// the compiler does on one line only); consecutive ones on one line are one clause.
    pub(crate) fn comp_if_lines_apart(&self, blocks: &[usize]) -> Vec<bool> {
        let mut clauses: Vec<(Option<i32>, bool)> = Vec::new();
        for &b in blocks {
            let ins = self.instrs(b);
            let Some(last) = ins.last() else { continue };
            if last.op.flow != Flow::Branch || !last.op.name.contains("JUMP") {
                continue;
            }
            let line = last.loc.line;
            let back = |x: Option<usize>| x.and_then(|x| self.jump_back(x));
            let apart = match (
                back(self.succ(b, EdgeKind::Jump)),
                back(self.succ(b, EdgeKind::Fall)),
            ) {
                (Some(j), _) => j.loc.line.is_some() && j.loc.line != line,
                (None, Some(_)) => false,
                (None, None) => continue,
            };
            match clauses.last_mut() {
                Some((l, a)) if *l == line => *a |= apart,
                _ => clauses.push((line, apart)),
            }
        }
        clauses.into_iter().map(|(_, a)| a).collect()
    }

    /// Block `x`'s instruction if it is only a jump back (markers aside).
    fn jump_back(&self, x: usize) -> Option<Instr> {
        self.lone_instr(x)
            .filter(|i| matches!(i.op.name, "JUMP_BACKWARD" | "JUMP_ABSOLUTE"))
    }
}

/// The flags of `comp_if_lines_apart` given to the comprehension's `ifs` (all of them, in order):
/// one per clause where the counts agree; where they do not, only a uniform answer is used.
pub(crate) fn assign_apart(gens: &mut [crate::ast::Comprehension], apart: &[bool]) {
    let n: usize = gens.iter().map(|g| g.ifs.len()).sum();
    let flags: Vec<bool> = if apart.len() == n {
        apart.to_vec()
    } else if !apart.is_empty() && apart.iter().all(|&a| a) {
        vec![true; n]
    } else {
        return;
    };
    let mut it = flags.into_iter();
    for g in gens {
        g.ifs_apart = g.ifs.iter().map(|_| it.next().unwrap_or(false)).collect();
    }
}
