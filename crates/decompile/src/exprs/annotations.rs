//! 3.14 (PEP 649, PEP 749) annotations of module and class bodies, without
//! `from __future__ import annotations`.
//!
//! The body evaluates no annotation. It stores a compiler-made `__annotate__` function
//! (`__annotate_func__` in a class body) that builds the annotations dict, one entry per annotated
//! simple name in source order. An annotation inside a compound statement (an `if`, a loop, a `try`,
//! ...; at module level every annotation) is conditional: the body adds its index to the set
//! `__conditional_annotations__` where the annotation stands, and `__annotate__` includes the entry
//! only if the index is in the set.
//!
//! Decompiling: the stored function becomes a marker statement listing the entries
//! ([`ANNOTATIONS`]), each set addition a marker expression statement ([`CONDITIONAL`]) at the
//! annotation's place; [`fold`] puts the annotations back: conditional ones where their marker
//! stands, the others in order between them, joined with an assignment of the same name where one
//! is there (`x: int = 1` compiles to `x = 1` alone). A marker left over refuses the code object.

use super::Sim;
use crate::ast::{Constant, Expr, ExprContext, Stmt};
use crate::error::DecompileError;
use crate::input::{CodeInput, Const};
use framejit_bytecode::opcode::ArgKind;
use framejit_bytecode::{Arg, Instr, Item};

/// The statement standing for the stored `__annotate__` function: `ANNOTATIONS = [(name,
/// annotation, index or None), ...]`.
pub const ANNOTATIONS: &str = "\u{0}annotations";
/// `CONDITIONAL(index)`: the set addition where a conditional annotation stands.
pub const CONDITIONAL: &str = "\u{0}conditional_annotation";
/// The set of conditional annotations reached.
const SET: &str = "__conditional_annotations__";

/// One annotation of a module or class body.
struct Entry {
    name: String,
    annotation: Expr,
    /// The index a conditional annotation adds to the set.
    index: Option<u32>,
}

impl Sim<'_> {
    /// A store of a module's `__annotate__` or a class body's `__annotate__func__` made by the
    /// compiler: the marker statement of its entries (`None`: not such a store).
    pub(super) fn annotate_store(
        &self,
        ins: &Instr,
        code_index: usize,
        target: &Expr,
    ) -> Result<Option<Stmt>, DecompileError> {
        if self.code.flags & crate::input::flags::OPTIMIZED != 0 {
            return Ok(None);
        }
        let Some(Const::Code(annotate)) = self.code.consts.get(code_index) else {
            return Ok(None);
        };
        let wanted = if self.code.name == "<module>" {
            "__annotate__"
        } else {
            "__annotate_func__"
        };
        if annotate.name != "__annotate__"
            || !matches!(target, Expr::Name { id, .. } if id == wanted)
        {
            return Ok(None);
        }
        let entries = entries(annotate).map_err(|m| self.err(ins, format!("__annotate__: {m}")))?;
        let elts = entries
            .into_iter()
            .map(|e| Expr::Tuple {
                elts: vec![
                    Expr::constant(Constant::str(&e.name)),
                    e.annotation,
                    Expr::constant(match e.index {
                        Some(i) => Constant::Int(i.to_string()),
                        None => Constant::None,
                    }),
                ],
                ctx: ExprContext::Load,
            })
            .collect();
        Ok(Some(Stmt::Assign {
            targets: vec![Expr::name(ANNOTATIONS)],
            value: Expr::List {
                elts,
                ctx: ExprContext::Load,
            },
        }))
    }

    /// `__conditional_annotations__.add(i)` (SET_ADD 1 onto the set): the marker of a conditional
    /// annotation, `None` when the set is something else.
    pub(super) fn conditional_mark(&self, set: Option<&Val>, item: &Expr) -> Option<Expr> {
        let is_set = matches!(set, Some(super::Val::Expr(Expr::Name { id, .. })) if id == SET);
        let is_index = matches!(
            item,
            Expr::Constant {
                value: Constant::Int(_),
                ..
            }
        );
        (is_set && is_index && self.code.flags & crate::input::flags::OPTIMIZED == 0).then(|| {
            Expr::Call {
                func: Box::new(Expr::name(CONDITIONAL)),
                args: vec![item.clone()],
                keywords: Vec::new(),
            }
        })
    }
}

use super::Val;

fn named(ins: &Instr) -> Option<&'static str> {
    match (ins.op.arg, ins.arg) {
        (ArgKind::Named { names, shift }, Arg::Raw(raw)) => {
            names.get((raw >> shift) as usize).copied()
        }
        _ => None,
    }
}

/// The entries of a module's or class's `__annotate__`:
///
/// ```text
///     if format > 2: raise NotImplementedError      (VALUE_WITH_FAKE_GLOBALS)
///     BUILD_MAP 0
///     per entry: [LOAD_SMALL_INT i; LOAD_* __conditional_annotations__; CONTAINS_OP 0;
///                 POP_JUMP_IF_FALSE skip]  VALUE; COPY 2; LOAD_CONST 'name'; STORE_SUBSCR  [skip:]
///     RETURN_VALUE
/// ```
///
/// Each value is straight-line code, evaluated with the decompiler's own expression rules.
fn entries(code: &CodeInput) -> Result<Vec<Entry>, String> {
    let ignored = |i: &Instr| {
        matches!(
            i.op.name,
            "RESUME" | "NOP" | "NOT_TAKEN" | "COPY_FREE_VARS" | "MAKE_CELL" | "CACHE"
        )
    };
    // instructions, each with the labels just before it
    let mut seq: Vec<(Vec<framejit_bytecode::Label>, Instr)> = Vec::new();
    let mut labels = Vec::new();
    for item in &code.bytecode.items {
        match item {
            Item::Label(l) => labels.push(*l),
            Item::Instr(i) if !ignored(i) => seq.push((std::mem::take(&mut labels), *i)),
            Item::Instr(_) => {}
            Item::TryBegin(_) | Item::TryEnd => return Err("an exception range".into()),
        }
    }
    if !labels.is_empty() {
        return Err("a label at the end".into());
    }
    let op = |k: usize| seq.get(k).map(|(_, i)| i.op.name).unwrap_or("");
    let raw = |k: usize| seq.get(k).map(|(_, i)| i.raw_arg());
    let format = code.varnames.first().ok_or("no format argument")?;
    let small = |k: usize, v: u32| match seq.get(k) {
        Some((_, i)) if i.op.name == "LOAD_SMALL_INT" => i.raw_arg() == v,
        Some((_, i)) if i.op.name == "LOAD_CONST" => matches!(
            code.consts.get(i.raw_arg() as usize),
            Some(Const::Value(Constant::Int(s))) if *s == v.to_string()
        ),
        _ => false,
    };
    // the guard
    let guard = op(0).starts_with("LOAD_FAST")
        && code.varnames.len() == 1
        && raw(0) == Some(0)
        && !format.is_empty()
        && small(1, 2)
        && op(2) == "COMPARE_OP"
        && seq.get(2).and_then(|(_, i)| named(i)) == Some(">")
        && op(3) == "POP_JUMP_IF_FALSE"
        && op(4) == "LOAD_COMMON_CONSTANT"
        && seq.get(4).and_then(|(_, i)| named(i)) == Some("NotImplementedError")
        && op(5) == "RAISE_VARARGS"
        && raw(5) == Some(1)
        && op(6) == "BUILD_MAP"
        && raw(6) == Some(0);
    let target_of = |k: usize| seq.get(k).and_then(|(_, i)| i.target());
    let labelled = |k: usize, l| seq.get(k).is_some_and(|(ls, _)| ls.contains(&l));
    if !guard || !target_of(3).is_some_and(|l| labelled(6, l)) {
        return Err("not the compiler's guard on the format".into());
    }
    let mut k = 7;
    let mut out = Vec::new();
    loop {
        if op(k) == "RETURN_VALUE" && k + 1 == seq.len() {
            return Ok(out);
        }
        // a conditional entry's test
        let mut skip = None;
        let mut index = None;
        if op(k) == "LOAD_SMALL_INT"
            && matches!(op(k + 1), "LOAD_GLOBAL" | "LOAD_DEREF" | "LOAD_NAME")
            && op(k + 2) == "CONTAINS_OP"
            && raw(k + 2) == Some(0)
            && op(k + 3) == "POP_JUMP_IF_FALSE"
        {
            let set_name = match seq.get(k + 1) {
                Some((_, i)) if i.op.name == "LOAD_GLOBAL" => {
                    code.names.get((i.raw_arg() >> 1) as usize)
                }
                Some((_, i)) if i.op.name == "LOAD_NAME" => code.names.get(i.raw_arg() as usize),
                Some((_, i)) => code
                    .deref_name(i.raw_arg())
                    .and_then(|n| code.freevars.iter().find(|f| *f == n)),
                None => None,
            };
            if set_name.map(String::as_str) == Some(SET) {
                index = raw(k);
                skip = target_of(k + 3);
                k += 4;
            }
        }
        // the value, up to `COPY 2; LOAD_CONST name; STORE_SUBSCR`
        let start = k;
        while k < seq.len() && op(k) != "STORE_SUBSCR" {
            k += 1;
        }
        if k >= seq.len()
            || k < start + 3
            || op(k - 2) != "COPY"
            || raw(k - 2) != Some(2)
            || op(k - 1) != "LOAD_CONST"
        {
            return Err("an entry of a shape this decompiler does not know".into());
        }
        let name = match raw(k - 1).and_then(|r| code.consts.get(r as usize)) {
            Some(c) => c.as_text().ok_or("an entry whose key is not a string")?,
            None => return Err("an entry whose key is not a string".into()),
        };
        let mut sim = Sim::new(code, Vec::new());
        for (j, (ls, ins)) in seq[start..k - 2].iter().enumerate() {
            if ins.op.is_jump() || (j > 0 && !ls.is_empty()) {
                return Err("an annotation with control flow".into());
            }
            if sim.step(ins).map_err(|e| e.message)?.is_some() {
                return Err("an annotation that leaves the function".into());
            }
        }
        let annotation = match sim.stack.as_slice() {
            [Val::Expr(e)] if sim.out.is_empty() => e.clone(),
            _ => return Err("an annotation that is not one expression".into()),
        };
        sim.check_copies().map_err(|e| e.message)?;
        k += 1;
        if let Some(l) = skip {
            // the test skips exactly this entry
            if !(labelled(k, l)) {
                return Err("a conditional entry that skips elsewhere".into());
            }
        }
        if labels_between(&seq, start, k) {
            return Err("a jump into an entry".into());
        }
        out.push(Entry {
            name,
            annotation,
            index,
        });
    }
}

fn labels_between(
    seq: &[(Vec<framejit_bytecode::Label>, Instr)],
    start: usize,
    end: usize,
) -> bool {
    seq[start + 1..end.min(seq.len())]
        .iter()
        .any(|(ls, _)| !ls.is_empty())
}

/// The compiler's creation of the set of conditional annotations reached, `__conditional_annotations__
/// = set()`, first in a module or class body that has conditional annotations (the set is then one of
/// its cells; under `from __future__ import annotations` too, where nothing uses it): taken off,
/// compiling the annotations makes it again.
pub fn drop_conditional_set(cellvars: &[String], body: &mut Vec<Stmt>) {
    let creation = |s: &Stmt| {
        matches!(s, Stmt::Assign { targets, value: Expr::Set { elts } }
        if elts.is_empty() && matches!(targets.as_slice(), [Expr::Name { id, .. }] if id == SET))
    };
    // (after the marker of the stored `__annotate__`, and a class's docstring)
    let at = body.iter().position(|s| {
        !is_annotations_marker(s)
            && !matches!(
                s,
                Stmt::Expr {
                    value: Expr::Constant {
                        value: Constant::Str(_),
                        ..
                    }
                }
            )
    });
    if let Some(k) = at.filter(|&k| cellvars.iter().any(|c| c == SET) && creation(&body[k])) {
        body.remove(k);
    }
}

/// Where a module's statements start: after the marker of its stored `__annotate__` (3.14).
pub fn first_statement(body: &[Stmt]) -> usize {
    body.iter()
        .position(|s| !is_annotations_marker(s))
        .unwrap_or(body.len())
}

/// Put the annotations of a module or class body back (see the module's documentation); none goes
/// before the leading declarations and docstring. Without the marker of the stored `__annotate__`,
/// the body is left as it is.
pub fn fold(body: &mut Vec<Stmt>) -> Result<(), String> {
    let Some(at) = body.iter().position(is_annotations_marker) else {
        return Ok(());
    };
    let Stmt::Assign {
        value: Expr::List { elts, .. },
        ..
    } = body.remove(at)
    else {
        return Err("annotations marker".into());
    };
    let mut entries = Vec::new();
    for e in elts {
        let Expr::Tuple { elts: parts, .. } = e else {
            return Err("annotations marker".into());
        };
        let [name, annotation, index] =
            <[Expr; 3]>::try_from(parts).map_err(|_| "annotations marker")?;
        let name = match name {
            Expr::Constant {
                value: Constant::Str(s),
                ..
            } => s.to_string_lossless().ok_or("annotation name")?,
            _ => return Err("annotations marker".into()),
        };
        let index = match index {
            Expr::Constant {
                value: Constant::Int(i),
                ..
            } => Some(i.parse::<u32>().map_err(|_| "annotation index")?),
            _ => None,
        };
        entries.push(Entry {
            name,
            annotation,
            index,
        });
    }
    let decls = body
        .iter()
        .take_while(|s| matches!(s, Stmt::Global { .. } | Stmt::Nonlocal { .. }))
        .count();
    let docstring = matches!(
        body.get(decls),
        Some(Stmt::Expr {
            value: Expr::Constant {
                value: Constant::Str(_),
                ..
            }
        })
    );
    let start = decls + usize::from(docstring);
    // where each conditional marker stands (top-level statement), and each replaced
    let mut top_of: Vec<(u32, usize)> = Vec::new();
    let mut t = 0;
    while t < body.len() {
        if let Some((i, at)) = replace_mark(body, t, &entries)? {
            top_of.push((i, at));
            t = at + 1;
            continue;
        }
        let mut found = Vec::new();
        for b in body[t].bodies_mut() {
            replace_marks(b, &entries, &mut found)?;
        }
        top_of.extend(found.into_iter().map(|i| (i, t)));
        t += 1;
    }
    for e in &entries {
        if let Some(i) = e.index {
            if top_of.iter().filter(|(j, _)| *j == i).count() != 1 {
                return Err(format!("conditional annotation {i} stands in no one place"));
            }
        }
    }
    // the unconditional ones, in order between the conditional ones
    let mut inserts: Vec<(usize, Stmt)> = Vec::new();
    let mut pos = start;
    for (n, e) in entries.iter().enumerate() {
        if let Some(i) = e.index {
            let t = top_of
                .iter()
                .find(|(j, _)| *j == i)
                .map(|(_, t)| *t)
                .unwrap_or(0);
            if t + 1 < pos || t < start {
                return Err("conditional annotations out of order".into());
            }
            pos = pos.max(t + 1);
            continue;
        }
        let next = entries[n + 1..]
            .iter()
            .find_map(|e| e.index)
            .and_then(|i| top_of.iter().find(|(j, _)| *j == i).map(|(_, t)| *t))
            .unwrap_or(body.len());
        let assign = (pos..next.min(body.len())).find(|&k| {
            matches!(&body[k], Stmt::Assign { targets, .. }
                if matches!(targets.as_slice(), [Expr::Name { id, .. }] if *id == e.name))
        });
        match assign {
            Some(k) => {
                let Stmt::Assign { value, .. } = &body[k] else {
                    continue;
                };
                body[k] = ann_assign(&e.name, &e.annotation, Some(value.clone()));
                pos = k + 1;
            }
            None => inserts.push((pos, ann_assign(&e.name, &e.annotation, None))),
        }
    }
    for (k, s) in inserts.into_iter().rev() {
        body.insert(k, s);
    }
    Ok(())
}

fn is_annotations_marker(s: &Stmt) -> bool {
    matches!(s, Stmt::Assign { targets, .. } if matches!(targets.as_slice(), [Expr::Name { id, .. }] if id == ANNOTATIONS))
}

fn ann_assign(name: &str, annotation: &Expr, value: Option<Expr>) -> Stmt {
    Stmt::AnnAssign {
        target: Expr::Name {
            id: name.to_string(),
            ctx: ExprContext::Store,
        },
        annotation: annotation.clone(),
        value,
        simple: true,
    }
}

/// The index of a conditional marker statement.
fn mark_index(s: &Stmt) -> Option<u32> {
    match s {
        Stmt::Expr {
            value: Expr::Call { func, args, .. },
        } if matches!(func.as_ref(), Expr::Name { id, .. } if id == CONDITIONAL) => {
            match args.as_slice() {
                [Expr::Constant {
                    value: Constant::Int(i),
                    ..
                }] => i.parse().ok(),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The conditional marker at `stmts[k]`, if it is one, replaced by its annotation, joined with an
/// assignment of the name just before it: its index and where the annotation now stands.
fn replace_mark(
    stmts: &mut Vec<Stmt>,
    k: usize,
    entries: &[Entry],
) -> Result<Option<(u32, usize)>, String> {
    let Some(i) = stmts.get(k).and_then(mark_index) else {
        return Ok(None);
    };
    let e = entries
        .iter()
        .find(|e| e.index == Some(i))
        .ok_or_else(|| format!("conditional annotation {i} has no entry"))?;
    let joined = match k.checked_sub(1).map(|p| &stmts[p]) {
        Some(Stmt::Assign { targets, value }) if matches!(targets.as_slice(), [Expr::Name { id, .. }] if *id == e.name) => {
            Some(value.clone())
        }
        _ => None,
    };
    Ok(Some(match joined {
        Some(v) => {
            stmts[k - 1] = ann_assign(&e.name, &e.annotation, Some(v));
            stmts.remove(k);
            (i, k - 1)
        }
        None => {
            stmts[k] = ann_assign(&e.name, &e.annotation, None);
            (i, k)
        }
    }))
}

/// Replace every conditional marker in `stmts` (at any depth, not in nested scopes) by its
/// annotation; `found` gets their indices.
fn replace_marks(
    stmts: &mut Vec<Stmt>,
    entries: &[Entry],
    found: &mut Vec<u32>,
) -> Result<(), String> {
    let mut k = 0;
    while k < stmts.len() {
        if let Some((i, at)) = replace_mark(stmts, k, entries)? {
            found.push(i);
            k = at + 1;
            continue;
        }
        for b in stmts[k].bodies_mut() {
            replace_marks(b, entries, found)?;
        }
        k += 1;
    }
    Ok(())
}
