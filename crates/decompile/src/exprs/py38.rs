//! Opcodes only CPython 3.8 has: the exit of a `with` statement (BEGIN_FINALLY pushing NULL,
//! WITH_CLEANUP_START / WITH_CLEANUP_FINISH calling `__exit__(None, None, None)`, POP_FINALLY 0
//! dropping the NULL; `legacy38.rs` gives the normal path the same sequence as a `return` through
//! the `with`), and the unpacking displays and calls (`f(*a, *b)`, `[*a, *b]`, `{**a, **b}`) that
//! 3.9 compiles with LIST_EXTEND / DICT_MERGE.

use super::{Exit, Sim, Val, WITH_EXIT};
use crate::ast::{Constant, Expr, ExprContext, Stmt};
use crate::error::DecompileError;
use framejit_bytecode::Instr;

/// Does [`Sim::step_py38`] take this opcode?
pub(super) fn handles(name: &str) -> bool {
    matches!(
        name,
        "BEGIN_FINALLY"
            | "WITH_CLEANUP_START"
            | "WITH_CLEANUP_FINISH"
            | "POP_FINALLY"
            | "BUILD_TUPLE_UNPACK_WITH_CALL"
            | "BUILD_TUPLE_UNPACK"
            | "BUILD_LIST_UNPACK"
            | "BUILD_SET_UNPACK"
            | "BUILD_MAP_UNPACK"
            | "BUILD_MAP_UNPACK_WITH_CALL"
    )
}

/// The exit call's result, under which WITH_CLEANUP_START leaves a copy of the NULL.
const CLEANUP: &str = "\u{0}with_cleanup";

impl Sim<'_> {
    pub(super) fn step_py38(
        &mut self,
        ins: &Instr,
        raw: u32,
    ) -> Result<Option<Exit>, DecompileError> {
        let name = ins.op.name;
        match name {
            "BEGIN_FINALLY" => self.stack.push(Val::Null),
            "WITH_CLEANUP_START" => {
                // [__exit__, NULL] -> [NULL, None, __exit__(None, None, None)]
                let n = self.stack.len();
                if n < 2 || self.stack[n - 1] != Val::Null || self.stack[n - 2] != Val::WithExit {
                    return Err(self.err(ins, "a with statement's exit of a shape not known"));
                }
                self.stack.truncate(n - 2);
                self.stack.push(Val::Null);
                self.push(Expr::name(CLEANUP));
                self.push(Expr::name(WITH_EXIT));
            }
            "WITH_CLEANUP_FINISH" => {
                let res = self.pop_expr(ins)?;
                let none = self.pop_expr(ins)?;
                if res != Expr::name(WITH_EXIT) || none != Expr::name(CLEANUP) {
                    return Err(self.err(ins, "a with statement's exit of a shape not known"));
                }
                self.out.push(Stmt::Expr {
                    value: Expr::name(WITH_EXIT),
                });
            }
            "POP_FINALLY" => {
                // only the with exit's NULL (a `return` / `break` out of a finally body is
                // not read)
                if raw != 0 || self.stack.last() != Some(&Val::Null) {
                    return Err(self.err(ins, "POP_FINALLY out of a finally body"));
                }
                self.stack.pop();
            }
            "BUILD_MAP_UNPACK" | "BUILD_MAP_UNPACK_WITH_CALL" => {
                let parts = self.pop_n(ins, raw as usize)?;
                let (mut keys, mut values) = (Vec::new(), Vec::new());
                // (a call's run of keywords `k=v` is one display: the display right after one is
                // the source's `**{...}`)
                let mut after_run = false;
                for p in parts {
                    match p {
                        // keyword arguments (`f(a=1, **k)`), spelt as such only where each key
                        // is a name
                        Expr::Dict { keys: k, values: v }
                            if name == "BUILD_MAP_UNPACK"
                                || !after_run && k.iter().all(keyword_name) =>
                        {
                            keys.extend(k);
                            values.extend(v);
                            after_run = true;
                        }
                        other => {
                            keys.push(None);
                            values.push(other);
                            after_run = false;
                        }
                    }
                }
                self.push(Expr::Dict { keys, values });
            }
            _ => {
                // BUILD_{TUPLE,LIST,SET}_UNPACK[_WITH_CALL]: displays of the runs without a star
                // spread, the other parts starred
                let parts = self.pop_n(ins, raw as usize)?;
                let mut elts = Vec::new();
                for p in parts {
                    match p {
                        Expr::Constant {
                            value: Constant::Tuple(v),
                            ..
                        } => elts.extend(v.into_iter().map(Expr::constant)),
                        Expr::Tuple { elts: e, .. } => elts.extend(e),
                        Expr::List { elts: e, .. } if name == "BUILD_LIST_UNPACK" => elts.extend(e),
                        Expr::Set { elts: e } if name == "BUILD_SET_UNPACK" => elts.extend(e),
                        Expr::Constant {
                            value: Constant::FrozenSet(v),
                            ..
                        } if name == "BUILD_SET_UNPACK" => {
                            elts.extend(v.into_iter().map(Expr::constant))
                        }
                        other => elts.push(Expr::Starred {
                            value: Box::new(other),
                            ctx: ExprContext::Load,
                        }),
                    }
                }
                self.push(match name {
                    "BUILD_LIST_UNPACK" => Expr::List {
                        elts,
                        ctx: ExprContext::Load,
                    },
                    "BUILD_SET_UNPACK" => Expr::Set { elts },
                    _ => Expr::Tuple {
                        elts,
                        ctx: ExprContext::Load,
                    },
                });
            }
        }
        Ok(None)
    }
}

/// A dict key that can be a keyword argument's name: a string that is an identifier.
pub(super) fn keyword_name(k: &Option<Expr>) -> bool {
    let Some(Expr::Constant {
        value: Constant::Str(s),
        ..
    }) = k
    else {
        return false;
    };
    let Some(s) = s.to_string_lossless() else {
        return false;
    };
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
        && !KEYWORDS.contains(&s.as_str())
}

const KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// 3.8 CALL_FUNCTION_EX's keyword mapping `kwargs` (after `prev`, the instruction before the call)
/// is the source's one `**` argument, to be written whole: the compiler passes the one mapping
/// there is as it is (BUILD_MAP_UNPACK_WITH_CALL merges two or more), and keywords `k=v` make one
/// only beside a `*` argument (without one the call is CALL_FUNCTION_KW). So where no argument
/// in `args` is starred, `f(0, **{})` and `f(**{'a': 1})` stay so. An empty one is never a run
/// of keywords (`f(*a)` passes no mapping): `f(*a, **{})` stays so too.
pub(super) fn whole_mapping(
    version: framejit_bytecode::PyVersion,
    prev: &str,
    args: &[Expr],
    kwargs: &Option<Expr>,
) -> bool {
    let Some(Expr::Dict { keys, .. }) = kwargs else {
        return false;
    };
    version < framejit_bytecode::PyVersion::V3_9
        && prev != "BUILD_MAP_UNPACK_WITH_CALL"
        && keys.iter().all(Option::is_some)
        && (keys.is_empty() || !args.iter().any(|a| matches!(a, Expr::Starred { .. })))
}
