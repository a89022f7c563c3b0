//! Shapes in which a block would come out twice (the structurer reaching a block it already
//! placed), read as the source had them.

use super::Structurer;

impl Structurer<'_> {
    /// Of the blocks control leaves a `while` loop headed by `header` to, those that can be the
    /// code after the loop: entered with the stack the header is entered with. A block entered
    /// with more (a `return` out of a `for` inside the loop, which pops the iterator first; a
    /// `return` out of a `with`, which calls the exit first) is a way out of the construct
    /// holding those values, placed where that construct is, never after the loop.
    pub(super) fn exits_at_header_depth(&self, header: usize, exits: &[usize]) -> Vec<usize> {
        let Some(depth) = self.entry_depth[header] else {
            return exits.to_vec();
        };
        exits
            .iter()
            .copied()
            .filter(|&x| self.entry_depth[x].is_none_or(|d| d <= depth))
            .collect()
    }
}

impl Structurer<'_> {
    /// Is the stop `s` of the region holding the branch at block `b`, laid out before `b`, the
    /// code after a try statement whose except clause holds the branch (3.11+ lay it out before
    /// the handler)? The branch is under a handler that does not cover `s`, and `s` is no
    /// header of a loop around the branch (nor a loop's jump back, which a handler would cover
    /// as it covers the branch).
    pub(super) fn stop_behind(&self, b: usize, s: usize) -> bool {
        let handler = |x: usize| self.cfg.blocks[x].handler.map(|h| h.0);
        self.code.version >= framejit_bytecode::PyVersion::V3_11
            && handler(b).is_some()
            && handler(s) != handler(b)
            && !self.loop_at(s).is_some_and(|l| l.body.contains(&b))
    }
}
