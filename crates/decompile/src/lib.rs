//! framejit's decompiler: CPython 3.8-3.14 bytecode back to Python source, in pure Rust.
//!
//! - [`input`]: the code object to decompile, in pure Rust.
//! - [`flow`]: basic blocks, dominators, post-dominators and loops of a code object.
//! - [`exprs`]: symbolic execution of instructions into expressions and statements.
//! - [`structure`]: statements from the control flow (`if`, `while`, `for`, `break`, `continue`).
//! - [`ast`]: the Python syntax tree the decompiler builds, and [`printer`] that writes it as source.
//!
//! See docs/decompiler.md for the design and what is done.

mod assert_fold;
pub mod ast;
pub mod error;
pub mod exprs;
pub mod flow;
mod inlined_calls;
pub mod input;
mod lambda_value;
mod legacy38;
mod legacy_layout38;
mod legacy_tail_return;
mod module_returns;
mod nop_lines;
mod peel;
pub mod printer;
mod private_names;
pub mod structure;

pub use error::DecompileError;
pub use input::{CodeInput, CodeParts, Const};

/// The statements of a code object's body.
pub fn decompile_body(code: &CodeInput) -> Result<Vec<ast::Stmt>, DecompileError> {
    let mut body = structure::Structurer::statements(code)?;
    kept_string_statements(&mut body);
    // (≤3.9: the statement the compiler's closing `return None` came out as, marked: the only
    // `return None` the tail rules may take, `structure/closing_return.rs`)
    let closing = structure::closing_return::has_closing_return(&mut body);
    if code.flags & input::flags::OPTIMIZED == 0 {
        fold_module_returns(&mut body);
    } else {
        with_arm_else(&mut body, false, closing);
    }
    // (a closing `return None` several jumps share was written: keep it)
    let written = code.flags & input::flags::OPTIMIZED != 0
        && code.shared_tail_return.get()
        && body.last().is_some_and(returns_none);
    // (≤3.9: the compiler's closing `return None` dead after the last statement: every way out
    // was written)
    let all_written =
        code.flags & input::flags::OPTIMIZED != 0 && legacy_tail_return::implicit_return_dead(code);
    if closing {
        let into_with = code.version <= framejit_bytecode::PyVersion::V3_10;
        let marked = &structure::closing_return::is_closing_return;
        structure::strip_tail(&mut body, marked, false, into_with);
        structure::closing_return::clear_marks(&mut body);
    } else if !written && !all_written {
        drop_tail_return(&mut body, code.version);
    }
    if code.flags & input::flags::OPTIMIZED == 0 {
        module_returns::module_tail_returns(&mut body);
    }
    fold_asserts(&mut body, code);
    if code.flags & input::flags::OPTIMIZED == 0 {
        exprs::drop_conditional_set(&code.cellvars, &mut body);
        if code.name == "<module>" {
            module_docstring(&mut body);
        }
        if sets_up_annotations(code) {
            fold_annotations(
                &mut body,
                code.flags & input::flags::FUTURE_ANNOTATIONS != 0,
            );
        }
        exprs::fold_annotations_314(&mut body)
            .map_err(|m| DecompileError::new(code, format!("annotations: {m}")))?;
    }
    let decls = declarations(code);
    // (a module's `global` goes after its docstring and `from __future__` imports, which must
    // come first)
    let at = if is_module_code(code) {
        module_head_len(&body)
    } else {
        0
    };
    body.splice(at..at, decls);
    Ok(body)
}

fn is_module_code(code: &CodeInput) -> bool {
    code.name == "<module>" && code.flags & input::flags::OPTIMIZED == 0
}

/// How many statements open a module before anything a `global` statement may precede: the
/// docstring and the `from __future__` imports.
fn module_head_len(body: &[ast::Stmt]) -> usize {
    use ast::{Constant, Expr, Stmt};
    let doc = usize::from(matches!(
        body.first(),
        Some(Stmt::Expr {
            value: Expr::Constant {
                value: Constant::Str(_),
                ..
            }
        })
    ));
    doc + body[doc..]
        .iter()
        .take_while(|s| {
            matches!(s, Stmt::ImportFrom { module: Some(m), level: 0, .. } if m == "__future__")
        })
        .count()
}

/// A string the code loads and drops (LOAD_CONST; POP_TOP) was no plain string statement, which
/// the compiler drops (and which, first in a body, would be its docstring and set `__doc__`): it
/// was an f-string without fields, which ≤3.11 compile to the load and the pop (`def g():
/// f'Not a docstring'`). Written back as that f-string, at every depth.
fn kept_string_statements(body: &mut [ast::Stmt]) {
    use ast::{Constant, Expr, Stmt};
    for s in body.iter_mut() {
        if let Stmt::Expr {
            value:
                value @ Expr::Constant {
                    value: Constant::Str(_),
                    ..
                },
        } = s
        {
            let part = std::mem::replace(value, Expr::constant(Constant::None));
            *value = Expr::JoinedStr { values: vec![part] };
            continue;
        }
        for b in s.bodies_mut() {
            kept_string_statements(b);
        }
    }
}

/// `global` / `nonlocal` declarations the body needs: names a function (or class body) stores or
/// deletes as globals, and free variables it stores or deletes. Without them the names would be local.
/// A module's own code uses the GLOBAL forms only for names declared `global` at module level or in
/// a function of it (a declaration the function's own code does not show when it only reads the
/// name): there loads count too.
fn declarations(code: &CodeInput) -> Vec<ast::Stmt> {
    use framejit_bytecode::{Arg, PyVersion};
    let mut globals: Vec<String> = Vec::new();
    let mut nonlocals: Vec<String> = Vec::new();
    let is_module = is_module_code(code);
    use framejit_bytecode::opcodes::ids;
    for ins in code.bytecode.instrs() {
        let Arg::Raw(raw) = ins.arg else { continue };
        match ins.op.id {
            ids::STORE_GLOBAL | ids::DELETE_GLOBAL | ids::LOAD_GLOBAL
                if is_module || ins.op.name != "LOAD_GLOBAL" =>
            {
                // (3.11+ LOAD_GLOBAL keeps a push-NULL flag in the low bit)
                let slot = if ins.op.name == "LOAD_GLOBAL" && code.version >= PyVersion::V3_11 {
                    raw >> 1
                } else {
                    raw
                };
                if let Some(n) = code.names.get(slot as usize) {
                    if !globals.contains(n) {
                        globals.push(n.clone());
                    }
                }
            }
            ids::STORE_DEREF | ids::DELETE_DEREF => {
                if let Some(n) = code.deref_name(raw) {
                    if code.freevars.iter().any(|f| f == n) && !nonlocals.iter().any(|x| x == n) {
                        nonlocals.push(n.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    // a free variable this code never touches (nor passes on to a closure) is there only because
    // the source declared it `nonlocal`
    for n in unused_free_variables(code) {
        if !nonlocals.contains(&n) {
            nonlocals.push(n);
        }
    }
    let mut out = Vec::new();
    if !globals.is_empty() {
        out.push(ast::Stmt::Global { names: globals });
    }
    if !nonlocals.is_empty() {
        out.push(ast::Stmt::Nonlocal { names: nonlocals });
    }
    out.extend(dead_code_scope(code));
    out
}

/// Does opcode name `name` hold `part`? (`str::contains` sets up a general substring search per
/// call, which for these short names cost more than the whole scan around it.)
fn holds(name: &str, part: &str) -> bool {
    times(name, part) > 0
}

/// How many times `part` occurs in `name` (`part` cannot overlap itself: "FAST", "DEREF").
fn times(name: &str, part: &str) -> usize {
    let part = part.as_bytes();
    name.as_bytes()
        .windows(part.len())
        .filter(|w| *w == part)
        .count()
}

/// The free variables (not the compiler's own: `__class__`, `.type_params`, ...) that no instruction
/// of `code` reads, stores, deletes or passes to a closure.
fn unused_free_variables(code: &CodeInput) -> Vec<String> {
    use framejit_bytecode::Arg;
    let own = |n: &str| n.starts_with('.') || n.starts_with("__class");
    if code.freevars.iter().all(|n| own(n)) {
        return Vec::new();
    }
    let mut used = vec![false; code.freevars.len()];
    let mut mark = |name: Option<&str>| {
        if let Some(k) = name.and_then(|n| code.freevars.iter().position(|f| f == n)) {
            used[k] = true;
        }
    };
    let late = code.version >= framejit_bytecode::PyVersion::V3_11;
    for ins in code.bytecode.instrs() {
        let Arg::Raw(raw) = ins.arg else { continue };
        let name = ins.op.name;
        if holds(name, "DEREF") || name == "LOAD_CLOSURE" {
            mark(code.deref_name(raw));
        } else if late && holds(name, "_FAST") {
            // (3.11+ cells and free variables are fast slots too; 3.13+ passes a closure's cells
            // with LOAD_FAST, and fuses two slots into one instruction, four bits each)
            if times(name, "FAST") == 2 {
                mark(code.fast_name((raw >> 4) as usize));
                mark(code.fast_name((raw & 15) as usize));
            } else {
                mark(code.fast_name(raw as usize));
            }
        }
    }
    code.freevars
        .iter()
        .zip(used)
        .filter(|(n, used)| !used && !own(n))
        .map(|(n, _)| n.clone())
        .collect()
}

/// By opcode id: does the name start with LOAD_FAST or STORE_FAST, or is it DELETE_FAST (the
/// instructions `dead_code_scope` reads; made once from the names, not tested per instruction).
static FAST_ACCESS: [bool; framejit_bytecode::opcodes::ids::NAMES.len()] = {
    const fn starts(name: &str, prefix: &str) -> bool {
        let (n, p) = (name.as_bytes(), prefix.as_bytes());
        if n.len() < p.len() {
            return false;
        }
        let mut i = 0;
        while i < p.len() {
            if n[i] != p[i] {
                return false;
            }
            i += 1;
        }
        true
    }
    let names = &framejit_bytecode::opcodes::ids::NAMES;
    let mut t = [false; framejit_bytecode::opcodes::ids::NAMES.len()];
    let mut i = 0;
    while i < names.len() {
        let n = names[i];
        t[i] = starts(n, "LOAD_FAST")
            || starts(n, "STORE_FAST")
            || (starts(n, "DELETE_FAST") && n.len() == "DELETE_FAST".len());
        i += 1;
    }
    t
};

/// What dead code the compiler dropped still decided: a local read but never stored (its only store
/// was unreachable: reading it raises UnboundLocalError, it must not become a global). `if False:`
/// keeps that fact and compiles to no instructions. (A generator whose every `yield` was dead code:
/// `structure::keep_generator`.)
fn dead_code_scope(code: &CodeInput) -> Vec<ast::Stmt> {
    use ast::{Constant, Expr, ExprContext, Stmt};
    use framejit_bytecode::Arg;
    if code.flags & input::flags::OPTIMIZED == 0 {
        return Vec::new();
    }
    let fast = code.fast_names();
    let nargs = (code.argcount + code.kwonlyargcount) as usize
        + usize::from(code.flags & input::flags::VARARGS != 0)
        + usize::from(code.flags & input::flags::VARKEYWORDS != 0);
    let mut loaded: Vec<&str> = Vec::new();
    let mut stored: Vec<&str> = Vec::new();
    for ins in code.bytecode.instrs() {
        let name = ins.op.name;
        // (only the fast-local loads, stores and deletes below count: the rest of the code passes
        // here at the cost of two prefix tests)
        if !FAST_ACCESS[usize::from(ins.op.id)] {
            continue;
        }
        let Arg::Raw(raw) = ins.arg else { continue };
        // (no allocation per instruction: one slot, or two for the 3.13+ pair forms)
        let (pair, single) = ([raw >> 4, raw & 15], [raw]);
        let slots: &[u32] = match name {
            "LOAD_FAST_LOAD_FAST"
            | "STORE_FAST_STORE_FAST"
            | "STORE_FAST_LOAD_FAST"
            | "LOAD_FAST_BORROW_LOAD_FAST_BORROW" => &pair,
            _ => &single,
        };
        for (k, &slot) in slots.iter().enumerate() {
            let Some(&n) = fast.get(slot as usize) else {
                continue;
            };
            let is_store = match name {
                "STORE_FAST" | "DELETE_FAST" | "STORE_FAST_STORE_FAST" => true,
                "STORE_FAST_LOAD_FAST" => k == 0,
                _ => false,
            };
            let is_load = name.starts_with("LOAD_FAST") && name != "LOAD_FAST_AND_CLEAR"
                || name == "STORE_FAST_LOAD_FAST" && k == 1;
            if is_store {
                stored.push(n);
            } else if is_load && !loaded.contains(&n) {
                loaded.push(n);
            }
        }
    }
    let mut body = Vec::new();
    for n in loaded {
        let is_arg = code.varnames.iter().take(nargs).any(|a| a == n);
        let is_cell = code
            .cellvars
            .iter()
            .chain(code.freevars.iter())
            .any(|c| c == n);
        if !is_arg && !is_cell && !stored.contains(&n) && code.varnames.iter().any(|v| v == n) {
            body.push(Stmt::Assign {
                targets: vec![Expr::Name {
                    id: n.to_string(),
                    ctx: ExprContext::Store,
                }],
                value: Expr::Constant {
                    value: Constant::None,
                    kind: None,
                },
            });
        }
    }
    if body.is_empty() {
        return Vec::new();
    }
    vec![Stmt::If {
        test: Expr::Constant {
            value: Constant::Bool(false),
            kind: None,
        },
        body,
        orelse: Vec::new(),
    }]
}

/// A module's docstring compiles to `__doc__ = '...'` as its first statement: written back as the
/// docstring (which a `from __future__` import may follow, as it may not follow an assignment).
fn module_docstring(body: &mut [ast::Stmt]) {
    use ast::{Constant, Expr, Stmt};
    let at = exprs::first_statement(body);
    let Some(s) = body.get_mut(at) else { return };
    let doc = match s {
        Stmt::Assign {
            targets,
            value:
                value @ Expr::Constant {
                    value: Constant::Str(_),
                    ..
                },
        } if matches!(targets.as_slice(), [Expr::Name { id, .. }] if id == "__doc__") => {
            value.clone()
        }
        _ => return,
    };
    *s = Stmt::Expr { value: doc };
}

/// `assert T, msg` back from its test and raise, at every depth (`assert_fold.rs`).
fn fold_asserts(body: &mut Vec<ast::Stmt>, code: &CodeInput) {
    let local = |n: &str| {
        [&code.varnames, &code.cellvars, &code.freevars]
            .iter()
            .any(|v| v.iter().any(|x| x == n))
    };
    let global_name = code.version < framejit_bytecode::PyVersion::V3_9 && !local("AssertionError");
    assert_fold::fold(body, global_name);
}

/// SETUP_ANNOTATIONS: the body has annotations that store into `__annotations__` (≤3.13, and 3.14
/// under `from __future__ import annotations`). Only then is `__annotations__['x'] = T` an annotation
/// (written out by hand it would not make the body set up `__annotations__`).
fn sets_up_annotations(code: &CodeInput) -> bool {
    code.bytecode
        .instrs()
        .any(|i| i.op.name == "SETUP_ANNOTATIONS")
}

/// Module and class bodies store annotations into `__annotations__`: `x: T = v` compiles to
/// `x = v; __annotations__['x'] = T`, and `x: T` to the second statement alone; inside compound
/// statements too (where nothing else is left to make the body set up `__annotations__`).
fn fold_annotations(body: &mut Vec<ast::Stmt>, future: bool) {
    for s in body.iter_mut() {
        for b in s.bodies_mut() {
            fold_annotations(b, future);
        }
    }
    fold_annotations_here(body, future);
}

fn fold_annotations_here(body: &mut Vec<ast::Stmt>, future: bool) {
    use ast::{Constant, Expr, ExprContext, Stmt};
    let annotation_of = |s: &Stmt| -> Option<(String, Expr)> {
        let Stmt::Assign { targets, value } = s else {
            return None;
        };
        let [Expr::Subscript {
            value: obj, slice, ..
        }] = targets.as_slice()
        else {
            return None;
        };
        let Expr::Name { id, .. } = obj.as_ref() else {
            return None;
        };
        let Expr::Constant {
            value: Constant::Str(key),
            ..
        } = slice.as_ref()
        else {
            return None;
        };
        (id == "__annotations__").then(|| Some((key.to_string_lossless()?, value.clone())))?
    };
    let mut out: Vec<Stmt> = Vec::with_capacity(body.len());
    for s in body.drain(..) {
        if let Some((name, annotation)) = annotation_of(&s) {
            let annotation = annotation_expr(future, &annotation);
            let target = Expr::Name {
                id: name.clone(),
                ctx: ExprContext::Store,
            };
            let value = match out.last() {
                Some(Stmt::Assign { targets, value }) if matches!(targets.as_slice(), [Expr::Name { id, .. }] if *id == name) =>
                {
                    let v = value.clone();
                    out.pop();
                    Some(v)
                }
                _ => None,
            };
            out.push(Stmt::AnnAssign {
                target,
                annotation,
                value,
                simple: true,
            });
            continue;
        }
        out.push(s);
    }
    *body = out;
}

/// Module code has no `return`: an `if` at the top level whose arm ends the module with the
/// compiler's `return None` while statements follow is `if T: A else: REST` (and so inside
/// that arm).
fn fold_module_returns(body: &mut Vec<ast::Stmt>) {
    use ast::{Constant, Expr, Stmt};
    // (a class body using `__class__` returns its cell instead)
    let ends = |b: &[Stmt]| {
        matches!(
            b.last(),
            Some(Stmt::Return { value: None })
                | Some(Stmt::Return {
                    value: Some(Expr::Constant {
                        value: Constant::None,
                        ..
                    })
                })
        ) || b.last().is_some_and(returns_class_cell)
    };
    let at = body.iter().position(|s| match s {
        Stmt::If {
            body: then, orelse, ..
        } => orelse.is_empty() && ends(then),
        _ => false,
    });
    let Some(i) = at else { return };
    if i + 1 >= body.len() {
        return;
    }
    let mut rest: Vec<Stmt> = body.drain(i + 1..).collect();
    fold_module_returns(&mut rest);
    if let Some(Stmt::If {
        body: then, orelse, ..
    }) = body.get_mut(i)
    {
        then.pop();
        // (a 3.13+ class body's epilogue comes with the copied return)
        while then.last().is_some_and(is_class_epilogue) {
            then.pop();
        }
        // (what ends the arm ends the module: the same inside it)
        fold_module_returns(then);
        if then.is_empty() {
            then.push(Stmt::Pass);
        }
        *orelse = rest;
    }
}

/// `__static_attributes__ = (...)`, 3.14's `__classdictcell__ = ...`, `__classcell__ = ...`: the
/// epilogue a class body is compiled with, before its `return` (and in every copy of that return).
fn is_class_epilogue(s: &ast::Stmt) -> bool {
    matches!(s, ast::Stmt::Assign { targets, .. } if matches!(targets.as_slice(), [ast::Expr::Name { id, .. }]
        if id == "__static_attributes__" || id == "__classdictcell__" || id == "__classcell__"))
}

/// The `return` that ends a class body using `__class__`: its cell, for `type.__new__`.
fn returns_class_cell(s: &ast::Stmt) -> bool {
    match s {
        ast::Stmt::Return { value: Some(v) } => match v {
            ast::Expr::Name { id, .. } => id == "__class__",
            other => exprs::cell_name(other) == Some("__class__"),
        },
        _ => false,
    }
}

/// Remove `return None` where control would end anyway: as the last statement, and at the ends of
/// the ways through a final `if`/`try` (CPython copies the implicit return into each; a `match`
/// case keeps its copy, which recompiles to the same jumps).
/// `if T: with ...: B` then `return None`, followed by the rest of a function (`R`): the compiler
/// copies the function's closing `return None` into the `with` statement's ways out (3.11: its
/// normal exit and the one after an exception it swallows), so the arm reads as leaving; written as
/// `if T: with ...: B  else: R`, as in the source (an explicit `return` there would make the swallowed
/// exception's way out jump to it instead). The same meaning either way. Within an `else:` made so
/// (`chain`), any arm closing with `return None` is taken the same way, which gives `elif` back.
/// ≤3.9 (`closing`: the structurer marked the compiler's closing return) the same holds for any
/// arm that ends in that marked return, and for no other: the arm goes on to the function's end,
/// past the code after the `if`, which only an `else:` does (a `return` the source wrote in the arm
/// would be instructions of its own).
fn with_arm_else(body: &mut Vec<ast::Stmt>, chain: bool, closing: bool) {
    use ast::Stmt;
    use structure::closing_return::is_closing_return;
    let n = body.len();
    let Some(k) = (0..n).rev().find(|&k| {
        matches!(&body[k], Stmt::If { body: arm, orelse, .. }
            if orelse.is_empty()
                && if closing {
                    arm.last().is_some_and(is_closing_return)
                } else {
                    arm.last().is_some_and(returns_none)
                        && (chain || matches!(arm.iter().rev().nth(1), Some(Stmt::With { .. } | Stmt::AsyncWith { .. })))
                })
    }) else {
        return;
    };
    if k + 1 == n {
        return;
    }
    let mut rest: Vec<Stmt> = body.drain(k + 1..).collect();
    with_arm_else(&mut rest, true, closing);
    if let Some(Stmt::If {
        body: arm, orelse, ..
    }) = body.last_mut()
    {
        arm.pop();
        *orelse = rest;
    }
}

fn drop_tail_return(body: &mut Vec<ast::Stmt>, version: framejit_bytecode::PyVersion) {
    if legacy_tail_return::closing_return_only(body, version) {
        return;
    }
    // (into a final `with` only where the compiler copies its exit into each end: ≤3.10)
    let into_with = version <= framejit_bytecode::PyVersion::V3_10;
    structure::strip_tail(body, &returns_none, false, into_with);
}

/// `return` or `return None`.
pub(crate) fn returns_none(s: &ast::Stmt) -> bool {
    use ast::{Constant, Expr, Stmt};
    matches!(
        s,
        Stmt::Return { value: None }
            | Stmt::Return {
                value: Some(Expr::Constant {
                    value: Constant::None,
                    ..
                }),
            }
    )
}

/// An annotation as written: under `from __future__ import annotations` (CO_FUTURE_ANNOTATIONS) the
/// compiler stores the annotation's source text, which prints as that text.
fn annotation_expr(future: bool, v: &ast::Expr) -> ast::Expr {
    match v {
        ast::Expr::Constant {
            value: ast::Constant::Str(s),
            ..
        } if future => match s.to_string_lossless() {
            Some(text) => ast::Expr::constant(ast::Constant::Opaque(text)),
            None => v.clone(),
        },
        other => other.clone(),
    }
}

/// The arguments of a function from its code object and what MAKE_FUNCTION gave it.
fn arguments(code: &CodeInput, f: Option<&exprs::FuncVal>) -> ast::Arguments {
    use input::flags;
    let future = code.flags & flags::FUTURE_ANNOTATIONS != 0;
    let annotation = |n: &str| {
        f.and_then(|f| {
            f.annotations
                .iter()
                .find(|(k, _)| k == n)
                .map(|(_, v)| annotation_expr(future, v))
        })
    };
    let arg = |n: &String| ast::Arg {
        arg: n.clone(),
        annotation: annotation(n),
    };
    let mut names = code.varnames.iter();
    let mut take = |n: u32| -> Vec<ast::Arg> { names.by_ref().take(n as usize).map(arg).collect() };
    let posonlyargs = take(code.posonlyargcount);
    let args = take(code.argcount.saturating_sub(code.posonlyargcount));
    let kwonlyargs = take(code.kwonlyargcount);
    let vararg = if code.flags & flags::VARARGS != 0 {
        take(1).pop()
    } else {
        None
    };
    let kwarg = if code.flags & flags::VARKEYWORDS != 0 {
        take(1).pop()
    } else {
        None
    };
    let kw_defaults = kwonlyargs
        .iter()
        .map(|a| {
            f.and_then(|f| {
                f.kwdefaults
                    .iter()
                    .find(|(k, _)| *k == a.arg)
                    .map(|(_, v)| v.clone())
            })
        })
        .collect();
    let defaults = f.map(|f| f.defaults.clone()).unwrap_or_default();
    ast::Arguments {
        posonlyargs,
        args,
        vararg,
        kwonlyargs,
        kw_defaults,
        kwarg,
        defaults,
    }
}

/// The docstring of a function's code object: CPython 3.8-3.13 put it first in `co_consts` (None when
/// there is none); 3.14 flags it with CO_HAS_DOCSTRING.
fn docstring(code: &CodeInput) -> Option<ast::Stmt> {
    let has = if code.version >= framejit_bytecode::PyVersion::V3_14 {
        code.flags & input::flags::HAS_DOCSTRING != 0
    } else {
        code.name != "<lambda>"
    };
    match code.consts.first() {
        Some(Const::Value(c @ ast::Constant::Str(_))) if has => Some(ast::Stmt::Expr {
            value: ast::Expr::constant(c.clone()),
        }),
        _ => None,
    }
}

/// A function's code object as a `def`; `f` gives defaults, annotations and decorators where known.
pub fn function_def(code: &CodeInput, f: &exprs::FuncVal) -> Result<ast::Stmt, DecompileError> {
    def_of(code, Some(f))
}

fn def_of(code: &CodeInput, f: Option<&exprs::FuncVal>) -> Result<ast::Stmt, DecompileError> {
    // compiler-made scopes (3.14's `type X = ...` value function takes `.format`) have no `def`
    let nargs = (code.argcount + code.kwonlyargcount) as usize
        + usize::from(code.flags & input::flags::VARARGS != 0)
        + usize::from(code.flags & input::flags::VARKEYWORDS != 0);
    if let Some(n) = code
        .varnames
        .iter()
        .take(nargs)
        .find(|n| n.starts_with('.'))
    {
        return Err(DecompileError::new(
            code,
            format!("a compiler-made function (argument {n}) has no source of its own"),
        ));
    }
    let mut body: Vec<ast::Stmt> = docstring(code).into_iter().collect();
    body.extend(decompile_body(code)?);
    if code.flags & input::flags::ASYNC_GENERATOR != 0 {
        structure::bare_returns(&mut body);
    }
    structure::keep_generator(code, &mut body);
    let def = ast::FunctionDef {
        name: code.name.clone(),
        args: arguments(code, f),
        body: if body.is_empty() {
            vec![ast::Stmt::Pass]
        } else {
            body
        },
        decorator_list: f.map(|f| f.decorators.clone()).unwrap_or_default(),
        returns: f.and_then(|f| {
            let future = code.flags & input::flags::FUTURE_ANNOTATIONS != 0;
            f.annotations
                .iter()
                .find(|(k, _)| k == "return")
                .map(|(_, v)| annotation_expr(future, v))
        }),
        type_params: Vec::new(),
    };
    Ok(
        if code.flags & (input::flags::COROUTINE | input::flags::ASYNC_GENERATOR) != 0 {
            ast::Stmt::AsyncFunctionDef(Box::new(def))
        } else {
            ast::Stmt::FunctionDef(Box::new(def))
        },
    )
}

/// A function's code object as a `def` (the signature from the code object alone: defaults and
/// annotations live on the function object).
pub fn decompile_function(code: &CodeInput) -> Result<ast::Stmt, DecompileError> {
    def_of(code, None)
}

/// A class statement from its body's code object and the `__build_class__` call.
pub fn class_def(code: &CodeInput, c: &exprs::ClassVal) -> Result<ast::Stmt, DecompileError> {
    match private_names::unmangled(code) {
        Some(plain) => class_def_of(&plain, c),
        None => class_def_of(code, c),
    }
}

fn class_def_of(code: &CodeInput, c: &exprs::ClassVal) -> Result<ast::Stmt, DecompileError> {
    use ast::{Constant, Expr, Stmt};
    let mut body = structure::Structurer::statements(code)?;
    kept_string_statements(&mut body);
    // (a class body, as module code, has no `return`: an arm ending in the copied return is an
    // `if`/`else`, the epilogue copied with it goes too)
    fold_module_returns(&mut body);
    drop_tail_return(&mut body, code.version);
    module_returns::module_tail_returns(&mut body);
    if code.version >= framejit_bytecode::PyVersion::V3_13 {
        // (the epilogue is at most two statements; statements are not compared to see whether a
        // round changed anything: a float NaN constant is not equal to itself)
        for _ in 0..2 {
            structure::strip_tail(&mut body, &is_class_epilogue, false, false);
        }
    }
    fold_asserts(&mut body, code);
    if sets_up_annotations(code) {
        fold_annotations(
            &mut body,
            code.flags & input::flags::FUTURE_ANNOTATIONS != 0,
        );
    }
    // The compiler's prologue and epilogue: __module__ = __name__, __qualname__ = '...',
    // 3.13+ __firstlineno__ / __static_attributes__, __doc__ = '...' (a docstring), and the class cell.
    let target_is = |s: &Stmt, names: &[&str]| match s {
        Stmt::Assign { targets, .. } => {
            targets.len() == 1
                && matches!(&targets[0], Expr::Name { id, .. } if names.contains(&id.as_str()))
        }
        _ => false,
    };
    // (and their copies at the ends of a final statement's arms, 3.11+)
    structure::strip_tail(&mut body, &returns_class_cell, false, false);
    // (one statement a pass: the epilogue has at most three)
    for _ in 0..3 {
        structure::strip_tail(&mut body, &is_class_epilogue, false, false);
    }
    let mut out: Vec<Stmt> = declarations(code);
    // (the prologue's stores lead the body, once each: a later store of the same name is the
    // class's own, `__qualname__ = 'Name'` to pickle a local class by name)
    let mut prologue = vec!["__module__", "__qualname__", "__firstlineno__"];
    let mut leading = true;
    for s in body {
        if leading {
            if let Some(at) = prologue.iter().position(|n| target_is(&s, &[n])) {
                prologue.remove(at);
                continue;
            }
            leading = false;
        }
        if target_is(
            &s,
            &[
                "__static_attributes__",
                "__classcell__",
                "__classdictcell__",
            ],
        ) {
            continue;
        }
        // a generic class's type parameters (3.12+): the class statement's own
        if let Stmt::Assign { targets, value } = &s {
            let is_name = |e: &Expr, n: &str| matches!(e, Expr::Name { id, .. } if id == n);
            if matches!(targets.as_slice(), [t] if is_name(t, "__type_params__"))
                && is_name(value, ".type_params")
            {
                continue;
            }
        }
        if target_is(&s, &["__doc__"]) {
            if let Stmt::Assign {
                value:
                    v @ Expr::Constant {
                        value: Constant::Str(_),
                        ..
                    },
                ..
            } = s
            {
                out.push(Stmt::Expr { value: v });
                continue;
            }
        }
        if returns_class_cell(&s) {
            continue;
        }
        out.push(s);
    }
    // 3.14 annotations (after a docstring)
    exprs::drop_conditional_set(&code.cellvars, &mut out);
    exprs::fold_annotations_314(&mut out)
        .map_err(|m| DecompileError::new(code, format!("annotations: {m}")))?;
    if out.is_empty() {
        out.push(Stmt::Pass);
    }
    Ok(Stmt::ClassDef(Box::new(ast::ClassDef {
        name: c.name.clone(),
        bases: c.bases.clone(),
        keywords: c.keywords.clone(),
        body: out,
        decorator_list: c.decorators.clone(),
        type_params: Vec::new(),
    })))
}

/// A comprehension's code object (3.8-3.11: a function called on the first iterator) as the
/// comprehension expression, `outer` being the iterable of its first `for`.
pub fn comprehension(code: &CodeInput, outer: ast::Expr) -> Result<ast::Expr, DecompileError> {
    let (body, apart) = structure::Structurer::comprehension_statements(code)?;
    let mut comp = fold_comprehension(code, &body, Some(outer), &code.name, &apart)?;
    if let ast::Expr::ListComp { generators, .. }
    | ast::Expr::SetComp { generators, .. }
    | ast::Expr::DictComp { generators, .. }
    | ast::Expr::GeneratorExp { generators, .. } = &mut comp
    {
        if let Some(g) = generators.first_mut() {
            g.line = Some(code.first_line);
        }
    }
    Ok(comp)
}

/// The comprehension whose loops are the `for` statements starting `body` (their innermost body
/// collecting with the COLLECT marker, or yielding for a generator expression). `outer` replaces the
/// first iterable (the function form's argument); `kind` is `<listcomp>`, `<setcomp>`, `<dictcomp>`
/// or `<genexpr>`.
pub(crate) fn fold_comprehension(
    code: &CodeInput,
    body: &[ast::Stmt],
    outer: Option<ast::Expr>,
    kind: &str,
    apart: &[bool],
) -> Result<ast::Expr, DecompileError> {
    use ast::{Comprehension, Expr, Stmt};
    let err = |m: &str| DecompileError::new(code, m.to_string());
    // the loops, then what is collected: For(target, iter, [If(test, [...])..., collect])
    let mut generators: Vec<Comprehension> = Vec::new();
    let mut stmts: &[Stmt] = body;
    let mut ifs: Vec<Expr> = Vec::new();
    let element = loop {
        match stmts {
            [Stmt::For {
                target,
                iter,
                body,
                orelse,
            }
            | Stmt::AsyncFor {
                target,
                iter,
                body,
                orelse,
            }, rest @ ..]
                if orelse.is_empty()
                    && (rest.is_empty() || (generators.is_empty() && outer.is_some())) =>
            {
                let is_async = matches!(stmts.first(), Some(Stmt::AsyncFor { .. }));
                if let Some(g) = generators.last_mut() {
                    g.ifs.append(&mut ifs);
                }
                let iter = match &outer {
                    Some(o) if generators.is_empty() => o.clone(),
                    _ => iter.clone(),
                };
                generators.push(Comprehension {
                    target: target.clone(),
                    iter,
                    ifs: Vec::new(),
                    is_async,
                    ifs_apart: Vec::new(),
                    line: None,
                });
                stmts = body;
            }
            // `for y in [v]` in a comprehension (3.9+ compile it as the assignment `y = v`)
            [Stmt::Assign { targets, value }, rest @ ..]
                if targets.len() == 1 && !generators.is_empty() && !rest.is_empty() =>
            {
                if let Some(g) = generators.last_mut() {
                    g.ifs.append(&mut ifs);
                }
                generators.push(Comprehension {
                    target: targets[0].clone(),
                    iter: Expr::List {
                        elts: vec![value.clone()],
                        ctx: ast::ExprContext::Load,
                    },
                    ifs: Vec::new(),
                    is_async: false,
                    ifs_apart: Vec::new(),
                    line: None,
                });
                stmts = rest;
            }
            [Stmt::If { test, body, orelse }] if orelse.is_empty() => {
                ifs.push(test.clone());
                stmts = body;
            }
            // `if not T: continue` (the continue dropped where it ends the loop body)
            [Stmt::If { test, body, orelse }]
                if matches!(body.as_slice(), [Stmt::Continue] | [Stmt::Pass])
                    && !orelse.is_empty() =>
            {
                ifs.push(match test {
                    Expr::UnaryOp {
                        op: ast::UnaryOp::Not,
                        operand,
                    } => (**operand).clone(),
                    other => Expr::UnaryOp {
                        op: ast::UnaryOp::Not,
                        operand: Box::new(other.clone()),
                    },
                });
                stmts = orelse;
            }
            [Stmt::Expr {
                value: Expr::Call { func, args, .. },
            }, rest @ ..]
                if matches!(func.as_ref(), Expr::Name { id, .. } if id == exprs::COLLECT)
                    && matches!(rest, [] | [Stmt::Continue]) =>
            {
                break args.clone();
            }
            [Stmt::Expr {
                value: Expr::Yield { value: Some(v) },
            }, rest @ ..]
                if kind == "<genexpr>" && matches!(rest, [] | [Stmt::Continue]) =>
            {
                break vec![(**v).clone()]
            }
            // nothing collected: 3.10+ drop the element after a constant false condition
            // (`[y for y in it if False]` loops, storing y, and collects nothing); the element is
            // dead code, so the loop's own target stands for it
            [] | [Stmt::Continue] | [Stmt::Pass] if !generators.is_empty() && ifs.is_empty() => {
                ifs.push(Expr::constant(ast::Constant::Bool(false)));
                let elt = match generators.last().map(|g| &g.target) {
                    Some(Expr::Name { id, .. }) => Expr::Name {
                        id: id.clone(),
                        ctx: ast::ExprContext::Load,
                    },
                    _ => Expr::constant(ast::Constant::None),
                };
                break match kind {
                    "<dictcomp>" => vec![elt.clone(), elt],
                    _ => vec![elt],
                };
            }
            _ => {
                return Err(err(
                    "a comprehension body of a shape this decompiler does not know",
                ))
            }
        }
    };
    if let Some(g) = generators.last_mut() {
        g.ifs.append(&mut ifs);
    }
    if generators.is_empty() {
        return Err(err("a comprehension without a for"));
    }
    structure::assign_apart(&mut generators, apart);
    let one = |v: &[Expr]| {
        v.first()
            .cloned()
            .ok_or_else(|| err("a comprehension without its element"))
    };
    Ok(match kind {
        "<listcomp>" => Expr::ListComp {
            elt: Box::new(one(&element)?),
            generators,
        },
        "<setcomp>" => Expr::SetComp {
            elt: Box::new(one(&element)?),
            generators,
        },
        "<genexpr>" => Expr::GeneratorExp {
            elt: Box::new(one(&element)?),
            generators,
        },
        _ => {
            let [k, v] = element.as_slice() else {
                return Err(err("a dict comprehension without key and value"));
            };
            Expr::DictComp {
                key: Box::new(k.clone()),
                value: Box::new(v.clone()),
                generators,
            }
        }
    })
}

/// A lambda's code object as a `lambda` expression.
pub fn lambda(code: &CodeInput, f: &exprs::FuncVal) -> Result<ast::Expr, DecompileError> {
    let body = structure::Structurer::statements(code)?;
    let temp = |n: &str| {
        let spill = n
            .strip_prefix("_tmp")
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()));
        spill && !code.varnames.iter().any(|v| v == n)
    };
    let value = lambda_value::returned_value(&body, &temp).ok_or_else(|| {
        // (FRAMEJIT_DEBUG_LAMBDA=1 shows the statements, for whoever works on the decompiler)
        let detail = match std::env::var_os("FRAMEJIT_DEBUG_LAMBDA") {
            Some(_) => format!(":\n{body:?}"),
            None => String::new(),
        };
        DecompileError::new(
            code,
            format!("a lambda whose body is not one returned expression{detail}"),
        )
    })?;
    Ok(ast::Expr::Lambda {
        args: Box::new(arguments(code, Some(f))),
        body: Box::new(value),
        line: Some(code.first_line),
    })
}

/// Source for a code object: a `def` for a function's code, the statements themselves for module and
/// class-body code (which run with name-based locals: no CO_OPTIMIZED flag).
pub fn decompile_source(code: &CodeInput) -> Result<String, DecompileError> {
    let empty = exprs::FuncVal {
        code: 0,
        defaults: Vec::new(),
        kwdefaults: Vec::new(),
        annotations: Vec::new(),
        decorators: Vec::new(),
    };
    decompile_source_with(code, &empty)
}

/// [`decompile_source`] for a function whose defaults and annotations (from the function object)
/// are in `f`.
pub fn decompile_source_with(
    code: &CodeInput,
    f: &exprs::FuncVal,
) -> Result<String, DecompileError> {
    if matches!(
        code.name.as_str(),
        "<listcomp>" | "<setcomp>" | "<dictcomp>" | "<genexpr>"
    ) {
        return Err(DecompileError::new(
            code,
            "a comprehension's code object has no source of its own: decompile the code that contains it",
        ));
    }
    if code.name.starts_with("<generic parameters of ") {
        return Err(DecompileError::new(
            code,
            "a type-parameter scope has no source of its own: decompile the code that contains it",
        ));
    }
    let source = source_of(code, f)?;
    // The structurer's markers (names with a NUL) must never reach the output: if one is left, some
    // construct around it was not recognised.
    if source.contains('\0') {
        // (FRAMEJIT_DEBUG_MARKERS=1 shows where, for whoever works on the decompiler)
        let detail = match std::env::var_os("FRAMEJIT_DEBUG_MARKERS") {
            Some(_) => format!(":\n{}", source.replace('\0', "@")),
            None => String::new(),
        };
        return Err(DecompileError::new(
            code,
            format!("a construct this decompiler does not recognise (marker left over){detail}"),
        ));
    }
    Ok(source)
}

/// The name of the `def` that a lambda's code object with more than one statement (generated code)
/// comes out as on its own.
pub const LAMBDA_AS_DEF: &str = "lambda_";

fn source_of(code: &CodeInput, f: &exprs::FuncVal) -> Result<String, DecompileError> {
    let empty = f;
    let stmts = if code.name == "<lambda>" {
        match lambda(code, empty) {
            Ok(value) => vec![ast::Stmt::Expr { value }],
            // Generated code (torch.compile's transformed code of a lambda's frame) has statements
            // where a lambda has one expression: a `def`, named as the keyword is spelled where a
            // name must not be one (its code object's name is the only difference).
            Err(e) => match function_def(code, empty) {
                Ok(ast::Stmt::FunctionDef(mut d)) => {
                    d.name = LAMBDA_AS_DEF.to_string();
                    vec![ast::Stmt::FunctionDef(d)]
                }
                _ => return Err(e),
            },
        }
    } else if code.flags & input::flags::OPTIMIZED != 0 {
        vec![function_def(code, empty)?]
    } else if code.name != "<module>" {
        // a class body on its own: its statements, without the compiler's prologue and epilogue
        match class_def(
            code,
            &exprs::ClassVal {
                code: 0,
                name: code.name.clone(),
                bases: Vec::new(),
                keywords: Vec::new(),
                decorators: Vec::new(),
            },
        )? {
            ast::Stmt::ClassDef(c) => c.body,
            other => vec![other],
        }
    } else {
        decompile_body(code)?
    };
    Ok(printer::print_decompiled(&stmts, code.version))
}

#[cfg(test)]
mod name_scan_tests {
    use super::{holds, times};
    use framejit_bytecode::opcode::table;
    use framejit_bytecode::PyVersion;

    /// The byte scans stand for `str::contains` / `matches().count()` on every opcode name of
    /// every version, and on names made to catch an off-by-one at either end.
    #[test]
    fn byte_scans_agree_with_str_search() {
        let mut names: Vec<&str> = PyVersion::ALL
            .iter()
            .flat_map(|&v| table(v).ops.iter().map(|op| op.name))
            .collect();
        names.extend([
            "DEREF",
            "DERE",
            "XDEREF",
            "FAST_FAST",
            "FASTFAST",
            "_FAS",
            "",
            "F",
        ]);
        for name in names {
            for part in ["DEREF", "_FAST", "FAST"] {
                assert_eq!(holds(name, part), name.contains(part), "{name} / {part}");
                assert_eq!(
                    times(name, part),
                    name.matches(part).count(),
                    "{name} / {part}"
                );
            }
        }
        assert_eq!(times("LOAD_FAST_LOAD_FAST", "FAST"), 2);
        assert!(!holds("LOAD_ATTR", "DEREF"));
    }

    /// `FAST_ACCESS` at an opcode's id is the name test it stands for, on every opcode of every
    /// version (and it holds some of each kind).
    #[test]
    fn fast_access_by_id_is_the_name_test() {
        let mut seen = [false; 2];
        for v in PyVersion::ALL {
            for op in table(v).ops {
                let name = op.name;
                let by_name = name.starts_with("LOAD_FAST")
                    || name.starts_with("STORE_FAST")
                    || name == "DELETE_FAST";
                assert_eq!(
                    super::FAST_ACCESS[usize::from(op.id)],
                    by_name,
                    "{v}: {name}"
                );
                seen[usize::from(by_name)] = true;
            }
        }
        assert_eq!(seen, [true, true]);
    }
}
