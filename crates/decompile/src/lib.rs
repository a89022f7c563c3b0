//! framejit's decompiler: CPython 3.8-3.14 bytecode back to Python source, in pure Rust.
//!
//! - [`input`]: the code object to decompile, in pure Rust.
//! - [`flow`]: basic blocks, dominators, post-dominators and loops of a code object.
//! - [`exprs`]: symbolic execution of instructions into expressions and statements.
//! - [`structure`]: statements from the control flow (`if`, `while`, `for`, `break`, `continue`).
//! - [`ast`]: the Python syntax tree the decompiler builds, and [`printer`] that writes it as source.
//!
//! See docs/decompiler.md for the design and what is done.

pub mod ast;
pub mod error;
pub mod exprs;
pub mod flow;
pub mod input;
pub mod printer;
pub mod structure;

pub use error::DecompileError;
pub use input::{CodeInput, CodeParts, Const};

/// The statements of a code object's body.
pub fn decompile_body(code: &CodeInput) -> Result<Vec<ast::Stmt>, DecompileError> {
    let mut body = structure::Structurer::new(code).module()?;
    drop_tail_return(&mut body);
    Ok(body)
}

/// Remove `return None` where control would end anyway: as the last statement, and as the last
/// statement of the arms of a final `if` (CPython copies the implicit return into each arm).
fn drop_tail_return(body: &mut Vec<ast::Stmt>) {
    use ast::{Constant, Expr, Stmt};
    match body.last_mut() {
        Some(Stmt::Return { value: None })
        | Some(Stmt::Return {
            value:
                Some(Expr::Constant {
                    value: Constant::None,
                    ..
                }),
        }) => {
            body.pop();
        }
        Some(Stmt::If {
            body: then, orelse, ..
        }) => {
            drop_tail_return(then);
            if then.is_empty() {
                then.push(Stmt::Pass);
            }
            drop_tail_return(orelse);
        }
        _ => {}
    }
}

/// A function's code object as a `def` (the signature from the code object alone: argument names and
/// kinds; defaults and annotations live on the function object).
pub fn decompile_function(code: &CodeInput) -> Result<ast::Stmt, DecompileError> {
    use input::flags;
    let body = decompile_body(code)?;
    let mut names = code.varnames.iter();
    let mut take = |n: u32| -> Vec<ast::Arg> {
        names
            .by_ref()
            .take(n as usize)
            .map(|s| ast::Arg::new(s))
            .collect()
    };
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
    let kw_defaults = vec![None; kwonlyargs.len()];
    let def = ast::FunctionDef {
        name: code.name.clone(),
        args: ast::Arguments {
            posonlyargs,
            args,
            vararg,
            kwonlyargs,
            kw_defaults,
            kwarg,
            defaults: Vec::new(),
        },
        body: if body.is_empty() {
            vec![ast::Stmt::Pass]
        } else {
            body
        },
        decorator_list: Vec::new(),
        returns: None,
        type_params: Vec::new(),
    };
    Ok(if code.flags & flags::COROUTINE != 0 {
        ast::Stmt::AsyncFunctionDef(Box::new(def))
    } else {
        ast::Stmt::FunctionDef(Box::new(def))
    })
}

/// Source for a code object: a `def` for a function's code, the statements themselves for module and
/// class-body code (which run with name-based locals: no CO_OPTIMIZED flag).
pub fn decompile_source(code: &CodeInput) -> Result<String, DecompileError> {
    let stmts = if code.flags & input::flags::OPTIMIZED == 0 {
        decompile_body(code)?
    } else {
        vec![decompile_function(code)?]
    };
    Ok(printer::print_module(&stmts, code.version))
}
