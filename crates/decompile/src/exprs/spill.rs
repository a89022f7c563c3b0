//! Spill mode: the second attempt at a code object the first one refused (see
//! `Structurer::statements`). Bytecode a program generated (`torch.compile`'s transformed code and
//! resume functions) keeps values on the stack while statements run, copies lists it then changes
//! in place, and extends lists that are not displays. An expression tree cannot say "evaluated here,
//! used later", so such values go into temporaries (`_tmpN = ...`) at the point the bytecode
//! computed them, in the order it computed them; the statements that follow then read the names.

use super::{Sim, Val};
use crate::ast::{Arguments, Constant, Expr, ExprContext, Stmt};
use framejit_bytecode::{Instr, Item};

impl Sim<'_> {
    /// Is spill mode on for this code object?
    pub(super) fn spilling(&self) -> bool {
        self.code.spill.get()
    }

    /// Does this code object store or delete the name `id` anywhere (as a local, cell, global or
    /// module name)? A name it never rebinds reads the same wherever it is evaluated.
    fn rebinds(&self, id: &str) -> bool {
        for item in &self.code.bytecode.items {
            let Item::Instr(ins) = item else { continue };
            let op = ins.op.name;
            if !(op.starts_with("STORE_") || op.starts_with("DELETE_")) {
                continue;
            }
            if op.ends_with("_ATTR") || op.ends_with("_SUBSCR") || op.ends_with("_SLICE") {
                continue;
            }
            let raw = match ins.arg {
                framejit_bytecode::Arg::Raw(a) => a,
                framejit_bytecode::Arg::Jump(_) => 0,
            };
            let hit = match op {
                "STORE_FAST" | "DELETE_FAST" => self.local(ins, raw).ok().as_deref() == Some(id),
                // 3.13+: two locals in one argument (the load of STORE_FAST_LOAD_FAST is no store)
                "STORE_FAST_STORE_FAST" => [raw >> 4, raw & 15]
                    .iter()
                    .any(|&i| self.local(ins, i).ok().as_deref() == Some(id)),
                "STORE_FAST_LOAD_FAST" => self.local(ins, raw >> 4).ok().as_deref() == Some(id),
                "STORE_NAME" | "STORE_GLOBAL" | "DELETE_NAME" | "DELETE_GLOBAL" => {
                    self.name(ins, raw).ok().as_deref() == Some(id)
                }
                "STORE_DEREF" | "DELETE_DEREF" => self.deref(ins, raw).ok().as_deref() == Some(id),
                // a store this list does not know: assume it may be of this name
                _ => true,
            };
            if hit {
                return true;
            }
        }
        false
    }

    /// Must `e`, waiting on the stack, be evaluated into a temporary before something else runs?
    /// Constants and names this code never rebinds read the same later; the decompiler's own
    /// markers (a `with`'s exit, a chained comparison's operand) are not values to keep.
    fn must_spill(&self, e: &Expr) -> bool {
        match e {
            Expr::Constant { .. } => false,
            Expr::Name { id, .. } => !id.starts_with('\u{0}') && self.rebinds(id),
            other => costs(other, self.code.version),
        }
    }

    /// Evaluate the values waiting on the stack from `lo` up (none below the structurer's base) into
    /// temporaries, appended to the statements in the order the bytecode computed them. False, with
    /// nothing changed, where a value still being built (a function, a class, an import, an
    /// unpacking) is among them.
    pub(crate) fn spill_from(&mut self, lo: usize) -> bool {
        let lo = lo.max(self.spill_floor);
        let Some(above) = self.stack.get(lo..) else {
            return true;
        };
        let in_the_way = above.iter().any(|v| {
            !matches!(
                v,
                Val::Expr(_)
                    | Val::Null
                    | Val::Iter(_)
                    | Val::WithExit
                    | Val::Saved(_)
                    | Val::Locals
                    | Val::Code(_)
                    | Val::KwNames(_)
            )
        });
        if in_the_way {
            return false;
        }
        for i in lo..self.stack.len() {
            let Val::Expr(e) = &self.stack[i] else {
                continue;
            };
            if !self.must_spill(e) {
                continue;
            }
            let e = e.clone();
            if let Some(k) = self.impure_copies.iter().position(|c| *c == e) {
                self.impure_copies.remove(k);
            }
            let tmp = self.fresh_temp();
            self.out.push(Stmt::Assign {
                targets: vec![Expr::Name {
                    id: tmp.clone(),
                    ctx: ExprContext::Store,
                }],
                value: e,
            });
            self.stack[i] = Val::Expr(Expr::name(&tmp));
        }
        true
    }

    /// After an instruction that made statements (from `out[made..]`) and pushed nothing of its
    /// own: the values it left waiting below what it consumed (`kept` of them) were computed before
    /// it, so they are evaluated before its statements.
    pub(super) fn spill_before(&mut self, ins: &Instr, made: usize, kept: usize) {
        if made >= self.out.len() || ins.op.name.contains("LOAD") {
            return;
        }
        let kept = kept.min(self.stack.len());
        let lo = self.spill_floor;
        if lo >= kept {
            return;
        }
        let stmts = self.out.split_off(made);
        let top = self.stack.split_off(kept);
        // (where a value being built waits there, all is left as it is outside spill mode)
        self.spill_from(lo);
        self.stack.extend(top);
        self.out.extend(stmts);
    }

    /// `LIST_EXTEND` / `LIST_APPEND` / `SET_UPDATE` / `SET_ADD` / `DICT_UPDATE` onto a collection that
    /// is not a display being built (generated code extends lists it computed or copied): the
    /// collection into a temporary, and a call of its method as a statement.
    pub(super) fn update_in_place(
        &mut self,
        ins: &Instr,
        idx: usize,
        method: &str,
        arg: Expr,
    ) -> Result<(), crate::error::DecompileError> {
        if idx < self.spill_floor || !self.spill_from(0) {
            return Err(self.err(
                ins,
                "changes in place a collection kept from outside its block",
            ));
        }
        let target = match self.stack.get(idx) {
            Some(Val::Expr(e @ Expr::Name { .. })) => e.clone(),
            _ => return Err(self.err(ins, "changes in place something that is not a collection")),
        };
        self.out.push(Stmt::Expr {
            value: Expr::Call {
                func: Box::new(Expr::Attribute {
                    value: Box::new(target),
                    attr: method.to_string(),
                    ctx: ExprContext::Load,
                }),
                args: vec![arg],
                keywords: Vec::new(),
            },
        });
        Ok(())
    }
}

/// The cell of the closure variable `name` as a value, `(lambda: name).__closure__[0]` (what
/// LOAD_CLOSURE pushes; compiled again, the lambda closes over the same cell).
pub(super) fn cell_of(name: &str) -> Expr {
    let lambda = Expr::Lambda {
        args: Box::new(Arguments::default()),
        body: Box::new(Expr::name(name)),
        line: None,
    };
    Expr::Subscript {
        value: Box::new(Expr::Attribute {
            value: Box::new(lambda),
            attr: "__closure__".to_string(),
            ctx: ExprContext::Load,
        }),
        slice: Box::new(Expr::constant(Constant::int(0))),
        ctx: ExprContext::Load,
    }
}

/// The name whose cell `e` is, if it is [`cell_of`] one.
pub(crate) fn cell_name(e: &Expr) -> Option<&str> {
    let Expr::Subscript { value, slice, .. } = e else {
        return None;
    };
    let Expr::Attribute { value, attr, .. } = value.as_ref() else {
        return None;
    };
    let Expr::Lambda { args, body, .. } = value.as_ref() else {
        return None;
    };
    let zero = matches!(slice.as_ref(), Expr::Constant { value: Constant::Int(i), .. } if i == "0");
    match body.as_ref() {
        Expr::Name { id, .. }
            if zero && attr == "__closure__" && **args == Arguments::default() =>
        {
            Some(id)
        }
        _ => None,
    }
}

impl Sim<'_> {
    /// What LOAD_FAST of local `name` pushes: its value, or from 3.13 on, where the slot is a cell
    /// (the compiler loads cells with LOAD_FAST to build closures), the cell itself.
    /// (a plain name keeps the string it is given: no second copy)
    pub(super) fn fast_load(&self, name: String) -> Expr {
        let cell = self.code.version >= framejit_bytecode::PyVersion::V3_13
            && self
                .code
                .cellvars
                .iter()
                .chain(&self.code.freevars)
                .any(|c| *c == name);
        if cell {
            cell_of(&name)
        } else {
            Expr::Name {
                id: name,
                ctx: crate::ast::ExprContext::Load,
            }
        }
    }
}

/// Does evaluating `e` do work whose place in the order matters (not a name, a constant, a cell,
/// nor one of the decompiler's markers)?
pub(super) fn costs(e: &Expr, version: framejit_bytecode::PyVersion) -> bool {
    match e {
        Expr::Name { .. } | Expr::Constant { .. } => false,
        other => {
            cell_name(other).is_none()
                && (!may_hold_nul(other)
                    || !crate::printer::print_expr(other, version).contains('\u{0}'))
        }
    }
}

/// Could the printed text of `e` hold a U+0000 (the decompiler's markers start with one)? The
/// printer writes its own fixed text, numbers, and the text of the tree's names and literals, so
/// where no name or literal in the tree holds a NUL, neither does the output. Common shapes are
/// looked through without printing them; any other is answered "maybe" (the caller prints it).
fn may_hold_nul(e: &Expr) -> bool {
    let text = |s: &str| s.contains('\u{0}');
    let all = |es: &[Expr]| es.iter().any(may_hold_nul);
    match e {
        Expr::Name { id, .. } => text(id),
        Expr::Constant { value, kind } => {
            kind.as_deref().is_some_and(text) || constant_may_hold_nul(value)
        }
        Expr::Attribute { value, attr, .. } => text(attr) || may_hold_nul(value),
        Expr::Call {
            func,
            args,
            keywords,
        } => {
            may_hold_nul(func)
                || all(args)
                || keywords
                    .iter()
                    .any(|k| k.arg.as_deref().is_some_and(text) || may_hold_nul(&k.value))
        }
        Expr::Subscript { value, slice, .. } => may_hold_nul(value) || may_hold_nul(slice),
        Expr::BinOp { left, right, .. } => may_hold_nul(left) || may_hold_nul(right),
        Expr::UnaryOp { operand, .. } => may_hold_nul(operand),
        Expr::Compare {
            left, comparators, ..
        } => may_hold_nul(left) || all(comparators),
        Expr::BoolOp { values, .. } => all(values),
        Expr::Tuple { elts, .. } | Expr::List { elts, .. } | Expr::Set { elts } => all(elts),
        Expr::Starred { value, .. } | Expr::Await { value } => may_hold_nul(value),
        _ => true,
    }
}

fn constant_may_hold_nul(c: &Constant) -> bool {
    match c {
        Constant::None
        | Constant::Bool(_)
        | Constant::Ellipsis
        | Constant::Float(_)
        | Constant::Complex { .. } => false,
        Constant::Int(s) | Constant::Opaque(s) => s.contains('\u{0}'),
        Constant::Str(s) => s.0.contains(&0),
        Constant::Bytes(b) => b.contains(&0),
        Constant::Tuple(items) | Constant::FrozenSet(items) => {
            items.iter().any(constant_may_hold_nul)
        }
    }
}

impl Sim<'_> {
    /// Is a computation of this statement's own (above the structurer's base; with `this_block`,
    /// one computed in this block) still waiting on the stack? (A copy that a chained assignment
    /// will use is not waiting.)
    pub(super) fn pending_work(&self, this_block: bool) -> bool {
        let lo = if this_block {
            self.spill_floor.max(self.entry_len)
        } else {
            self.spill_floor
        };
        let lo = lo.min(self.stack.len());
        self.stack[lo..].iter().any(|v| match v {
            Val::Expr(e) => costs(e, self.code.version) && !self.impure_copies.contains(e),
            Val::Function(_) | Val::Class(_) => true,
            _ => false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Keyword;
    use framejit_bytecode::PyVersion;

    fn call(func: Expr, arg: Expr, keyword: Option<&str>) -> Expr {
        Expr::Call {
            func: Box::new(func),
            args: vec![arg],
            keywords: keyword
                .map(|k| Keyword {
                    arg: Some(k.to_string()),
                    value: Expr::constant(Constant::int(1)),
                })
                .into_iter()
                .collect(),
        }
    }

    /// `costs` looks through common shapes without printing them, and answers as printing does:
    /// a marker anywhere in the tree (a name, an attribute, a keyword) is found.
    #[test]
    fn costs_finds_markers_without_printing() {
        let v = PyVersion::V3_11;
        let plain = call(
            Expr::name("f"),
            Expr::constant(Constant::str("a\u{0}b")),
            Some("k"),
        );
        assert!(!may_hold_nul(&call(
            Expr::name("f"),
            Expr::name("x"),
            Some("k")
        )));
        assert!(may_hold_nul(&plain)); // (a NUL in a str literal: printed to be sure)
        assert!(costs(&plain, v)); // (printed escaped: no marker)
        for marked in [
            call(Expr::name("\u{0}m"), Expr::name("x"), None),
            call(Expr::name("f"), Expr::name("\u{0}m"), None),
            call(Expr::name("f"), Expr::name("x"), Some("\u{0}k")),
        ] {
            assert!(may_hold_nul(&marked));
            assert!(!costs(&marked, v));
        }
        assert!(costs(&call(Expr::name("f"), Expr::name("x"), None), v));
    }
}
