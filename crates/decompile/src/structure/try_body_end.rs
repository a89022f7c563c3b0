//! 3.11+: where a try body ends, when an `if` arm inside it runs on past its end.
//!
//! A try body ends where control leaves its handler's range other than by a `return`, `break` or
//! `continue`: the `else:` part or the code after the statement starts there. The body's region
//! notices that only at its own top level; an arm of an `if` nested in the body (`if a: continue`
//! `elif b: ...` followed by more of the body) runs on into the uncovered code as its own, and the
//! `else:` part came out inside the try body: exceptions it raises were caught by the clauses
//! (posixpath.realpath on 3.14, inspect.classify_class_attrs, http.server's parse_request).
//!
//! The body's end is then the one block outside the range that its covered code reaches by a
//! normal edge and that is no way out of it (a loop's header or exit, a `return` of a constant,
//! a line marker leading back in, code that only leaves the function, code entered with a value
//! carried on, such as a `return` value through an enclosing finally body's copy). Where the
//! first reading put that block inside the body, the body is read again with the region stopping
//! there. (Only for except clauses: a finally statement's ways out run copies of its body outside
//! the range.) The second reading starts from the visit counts, emitted blocks and flags the
//! first one found; other notes a first reading leaves (tailcopy's marks of copied tails) are
//! not rolled back: the sweeps found no reading they changed.

use super::{EdgeKind, LoopCtx, Structurer};

impl Structurer<'_> {
    /// 3.11+: does handler `h` (cleanup block `cleanup`) hold except clauses (a test of the
    /// exception against a class, of this handler's own, or a bare `except:` popping it), rather
    /// than a finally body?
    pub(super) fn has_except_clauses(&self, h: usize, cleanup: usize) -> bool {
        let tests = (h..cleanup).any(|x| {
            self.cfg.blocks[x].handler.map(|c| c.0) == Some(cleanup)
                && self
                    .instrs(x)
                    .iter()
                    .any(|i| i.op.name == "CHECK_EXC_MATCH")
        });
        tests || self.instrs(h).get(1).map(|i| i.op.name) == Some("POP_TOP")
    }

    /// The one block where the body of the try statement starting at `b` (handler `h`) goes on
    /// past its range, as above; `None` where there is none or more than one.
    pub(super) fn try_body_end(&self, b: usize, h: usize, lp: Option<&LoopCtx>) -> Option<usize> {
        let n = self.cfg.blocks.len();
        let mut seen = vec![false; n];
        let mut todo = vec![b];
        let mut end: Option<usize> = None;
        while let Some(x) = todo.pop() {
            if std::mem::replace(&mut seen[x], true) {
                continue;
            }
            for e in &self.cfg.blocks[x].succs {
                let t = e.to;
                if e.kind == EdgeKind::Exception {
                    // (the handlers of try statements nested in the body are the body's code)
                    if t != h && self.covered_by(t, h) {
                        todo.push(t);
                    }
                    continue;
                }
                if self.covered_by(t, h) || self.marker_inside_body(t, h) {
                    todo.push(t);
                    continue;
                }
                // (nor a way out that carries a value on, a `return` value waiting through the
                // copy of an enclosing finally body: the body's end is at the body's depth)
                if self.is_body_exit(t, lp)
                    || self.only_leaves(self.fall_chain_end(t))
                    || self.entry_depth[t] != self.entry_depth[b]
                {
                    continue;
                }
                match end {
                    Some(y) if y != t => return None,
                    _ => end = Some(t),
                }
            }
        }
        end
    }
}

/// What the structurer's first reading of a try body changed that a second reading starts over
/// from: the visit counts, the blocks emitted, the bottom-test flag.
pub(super) type Before = (Vec<u32>, Vec<bool>, bool);

impl Structurer<'_> {
    /// The body of the try statement starting at `b` (handler `h`, the innermost `try_body`
    /// entry), read again up to its end where the first reading put that end inside the body
    /// (see the module's documentation): its statements and what it left on the stack at its
    /// end, with the entry's end recorded. `None`, with the first reading's state kept, where the
    /// first reading did not do that or the second one does not end there.
    /// Is a try/finally body (a handler without except clauses) inside the loop headed by
    /// `header` (its handler not the one covering the header) being read? A `continue` there
    /// leaves through the finally body's copy (3.11): `nop_header::written_continue_mark`
    /// stays out of it.
    pub(super) fn in_finally_body(&self, header: usize) -> bool {
        let around = self.cfg.blocks[header].handler.map(|c| c.0);
        self.try_body.iter().any(|&(h, _)| {
            Some(h) != around
                && self.cfg.blocks[h]
                    .handler
                    .is_some_and(|c| !self.has_except_clauses(h, c.0))
        })
    }

    pub(super) fn body_to_end(
        &mut self,
        b: usize,
        h: usize,
        base: &[super::Val],
        lp: Option<&LoopCtx>,
        before: Before,
        late_before: usize,
    ) -> Option<(Vec<super::Stmt>, Vec<super::Val>)> {
        let found = self.try_body.last().and_then(|t| t.1);
        let end = self
            .try_body_end(b, h, lp)
            .filter(|&e| self.emitted[e] && found != Some(e))?;
        let (visits, emitted, seen) = before;
        let first = (
            std::mem::replace(&mut self.visits, visits),
            std::mem::replace(&mut self.emitted, emitted),
            std::mem::replace(&mut self.bottom_test_seen, seen),
            std::mem::replace(&mut self.late_returns, late_before),
        );
        if let Some(t) = self.try_body.last_mut() {
            t.1 = None;
        }
        let again = self.region_taking_carry(b, Some(end), base, Vec::new(), lp);
        let left = self.stop_carry.take();
        let ended = self.try_body.last().is_some_and(|t| t.1.is_none()) && !self.emitted[end];
        match (again, left) {
            (Ok(stmts), Some(left)) if ended => {
                if let Some(t) = self.try_body.last_mut() {
                    t.1 = Some(end);
                }
                Some((stmts, left))
            }
            _ => {
                (
                    self.visits,
                    self.emitted,
                    self.bottom_test_seen,
                    self.late_returns,
                ) = first;
                if let Some(t) = self.try_body.last_mut() {
                    t.1 = found;
                }
                None
            }
        }
    }
}
