//! 3.12+ inlined comprehensions (PEP 709) and the handlers the compiler adds that the source does
//! not show.
//!
//! A list, set or dict comprehension runs in its function's frame: the locals it binds are saved
//! (LOAD_FAST_AND_CLEAR, a [`Val::Saved`] on the symbolic stack) under the iterator, the collection
//! is built under the iterator by a FOR_ITER loop, and at the end the saved values are stored back.
//! A handler covering the loop does the same restore before re-raising. The loop is recognised
//! from the stack it is entered with (an empty collection under the iterator, which no `for`
//! statement has), structured as a `for` statement, and folded into the comprehension expression
//! that replaces the collection on the stack.

use super::{Next, Structurer};
use crate::error::DecompileError;
use crate::exprs::Val;
use crate::flow::{Cfg, EdgeKind};
use crate::input::{flags, CodeInput};
use framejit_bytecode::opcode::ArgKind;
use framejit_bytecode::{Instr, Item, PyVersion};

fn block_instrs<'a>(code: &'a CodeInput, cfg: &Cfg, b: usize) -> Vec<&'a Instr> {
    cfg.blocks[b]
        .instrs
        .iter()
        .filter_map(|&i| match code.bytecode.items.get(i) {
            Some(Item::Instr(ins)) => Some(ins),
            _ => None,
        })
        .collect()
}

fn named(ins: &Instr) -> Option<&'static str> {
    match ins.op.arg {
        ArgKind::Named { names, shift } => names.get((ins.raw_arg() >> shift) as usize).copied(),
        _ => None,
    }
}

/// Is handler block `h` one the compiler adds around code without a source form of its own:
/// - an inlined comprehension's restore: SWAP / POP_TOP / STORE_FAST of the saved locals, RERAISE 0
///   (over fall-through blocks);
/// - a generator's or coroutine's wrapper turning a StopIteration into RuntimeError:
///   CALL_INTRINSIC_1 INTRINSIC_STOPITERATION_ERROR, RERAISE 1.
pub(super) fn transparent(code: &CodeInput, cfg: &Cfg, h: usize) -> bool {
    if code.version < PyVersion::V3_12 {
        return false;
    }
    let first = block_instrs(code, cfg, h);
    let generator = flags::GENERATOR | flags::COROUTINE | flags::ASYNC_GENERATOR;
    if code.flags & generator != 0 {
        let names: Vec<&str> = first.iter().map(|i| i.op.name).collect();
        if names == ["CALL_INTRINSIC_1", "RERAISE"]
            && named(first[0]) == Some("INTRINSIC_STOPITERATION_ERROR")
        {
            return true;
        }
    }
    // the restore, possibly over several blocks joined by fall-through
    let mut b = h;
    let mut stores = 0;
    for _ in 0..8 {
        let ins = block_instrs(code, cfg, b);
        if ins.is_empty() {
            return false;
        }
        for (k, i) in ins.iter().enumerate() {
            match i.op.name {
                "SWAP" | "POP_TOP" | "NOP" => {}
                "STORE_FAST" => stores += 1,
                "RERAISE" => return k + 1 == ins.len() && i.raw_arg() == 0 && stores > 0,
                _ => return false,
            }
        }
        match cfg.blocks[b]
            .succs
            .iter()
            .find(|e| e.kind == EdgeKind::Fall)
        {
            Some(e) => b = e.to,
            None => return false,
        }
    }
    false
}

/// Blocks covered by a transparent handler are treated as covered by that handler's own handler.
pub(super) fn skip_transparent_handlers(code: &CodeInput, cfg: &mut Cfg) {
    let n = cfg.blocks.len();
    let see: Vec<bool> = (0..n).map(|h| transparent(code, cfg, h)).collect();
    for b in 0..n {
        let mut h = cfg.blocks[b].handler;
        let mut steps = 0;
        while let Some((x, _, _)) = h {
            if !see.get(x).copied().unwrap_or(false) || steps > n {
                break;
            }
            h = cfg.blocks[x].handler;
            steps += 1;
        }
        cfg.blocks[b].handler = h;
    }
}

/// Values above `base` that are an inlined comprehension's saved locals: its setup and its end.
pub(super) fn holds_saved(stack: &[Val], base: usize) -> bool {
    stack
        .get(base..)
        .is_some_and(|s| s.iter().any(|v| matches!(v, Val::Saved(_))))
}

impl Structurer<'_> {
    /// Block `b` ran with an inlined comprehension's saved locals left on the stack: is it only that
    /// comprehension's setup or end? Statements may come before the locals are saved; none while
    /// they are saved (the comprehension's own loop is structured apart).
    pub(super) fn comp_setup_or_end(
        &self,
        b: usize,
        left: &[Val],
        base: usize,
        quiet: bool,
    ) -> bool {
        if !holds_saved(left, base) {
            return false;
        }
        let ins = self.instrs(b);
        match ins.iter().position(|i| i.op.name == "LOAD_FAST_AND_CLEAR") {
            Some(k) => ins[k..].iter().all(|i| {
                matches!(
                    i.op.name,
                    "LOAD_FAST_AND_CLEAR"
                        | "SWAP"
                        | "BUILD_LIST"
                        | "BUILD_SET"
                        | "BUILD_MAP"
                        | "MAKE_CELL"
                        | "NOP"
                )
            }),
            None => quiet,
        }
    }

    /// The kind of inlined comprehension whose loop `header` is entered with `stack` (`<listcomp>`,
    /// `<setcomp>`, `<dictcomp>`), if it is one: 3.12+, a FOR_ITER header with the iterator on top of
    /// an empty collection above `base`.
    pub(super) fn inline_comp_at(
        &self,
        header: usize,
        stack: &[Val],
        base: usize,
    ) -> Option<&'static str> {
        use crate::ast::Expr;
        if self.code.version < PyVersion::V3_12 || stack.len() < base + 2 {
            return None;
        }
        self.loop_at(header)?;
        // (an async comprehension: an `async for` loop headed by GET_ANEXT)
        if !matches!(
            self.instrs(header).first().map(|i| i.op.name),
            Some("FOR_ITER" | "GET_ANEXT")
        ) {
            return None;
        }
        if !matches!(stack.last(), Some(Val::Iter(_))) {
            return None;
        }
        match &stack[stack.len() - 2] {
            Val::Expr(Expr::List { elts, .. }) if elts.is_empty() => Some("<listcomp>"),
            Val::Expr(Expr::Set { elts }) if elts.is_empty() => Some("<setcomp>"),
            Val::Expr(Expr::Dict { keys, .. }) if keys.is_empty() => Some("<dictcomp>"),
            _ => None,
        }
    }

    /// The inlined comprehension of kind `kind` whose loop is `header`, entered with `stack`: where
    /// control goes on, with the comprehension in place of the collection on the stack.
    pub(super) fn inline_comprehension(
        &mut self,
        header: usize,
        stack: Vec<Val>,
        kind: &str,
    ) -> Result<Next, DecompileError> {
        let at = stack.len() - 2;
        let mut blocks = self
            .loop_at(header)
            .map(|l| l.body.clone())
            .unwrap_or_default();
        blocks.sort_unstable();
        let apart = self.comp_if_lines_apart(&blocks);
        let (stmts, mut next) =
            if self.instrs(header).first().map(|i| i.op.name) == Some("GET_ANEXT") {
                self.async_for_stmt(header, stack, None)?
            } else {
                self.for_stmt(header, stack, None)?
            };
        let comp =
            crate::fold_comprehension(self.code, &stmts, None, kind, &apart).map_err(|e| {
                self.err(format!(
                    "an inlined comprehension: {} {:?}",
                    e.message, stmts
                ))
            })?;
        match next.carry.get_mut(at) {
            Some(slot @ Val::Expr(_)) => *slot = Val::Expr(comp),
            _ => return Err(self.err("an inlined comprehension without its collection")),
        }
        Ok(next)
    }
}
