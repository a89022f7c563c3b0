//! The sense of a test: which written form of a negated condition compiles back to the same
//! comparison operator and the same jump.
//!
//! In a test (`if`, `while`, `assert`, an operand of `and` / `or` there) the compiler pushes a
//! `not` down to the comparisons: `not (a and b)` jumps exactly as `not a or not b`, and a `not` on
//! a comparison turns its jump around. Through 3.13 the AST optimiser first folds `not (a in b)`
//! into `a not in b` (`is` likewise), so a `not` standing right on an `in` / `is` comparison
//! changes its operator, not its jump; 3.14 folds only values (`if not a in b:` tests `in` and
//! jumps when it holds, `if a not in b:` tests `not in` and jumps when it fails).
//!
//! So `negate` keeps a negated `in` / `is` comparison as `not (a in b)` (which keeps the operator
//! the bytecode tested), and negates an `and` / `or` over such comparisons by De Morgan (pushing the
//! `not` down, where it cancels) where that leaves fewer of them negated than it finds. Through
//! 3.13 the printer writes a `not` still standing on such a comparison into its operator (the
//! compiler reads both alike there; `x not in s` reads better). `in` and `is` always give a bool,
//! so every form behaves the same; only the instructions differ.
//!
//! `negate` is called from many places without the code object at hand; the version's fact is set
//! for the thread when a code object's structuring starts (`Structurer::new`): every code object a
//! structuring reaches is of that one version.

use crate::ast::{CmpOp, Constant, Expr, UnaryOp};
use std::cell::Cell;

thread_local! {
    static FOLDS_NOT: Cell<bool> = const { Cell::new(true) };
    static NONE_JUMPS: Cell<bool> = const { Cell::new(false) };
}

/// Records the version whose tests `negate` writes from now on (on this thread).
pub(crate) fn set_version(version: framejit_bytecode::PyVersion) {
    FOLDS_NOT.with(|f| f.set(version.info().folds_not_in_tests));
    NONE_JUMPS.with(|f| f.set(version.info().jumps_on_none));
}

/// Whether `x is None` and `not x is not None` compile to the same jump on `None` (3.11+): the
/// negation of such a test may be written into its operator (which reads better) on any version.
pub(crate) fn none_jumps() -> bool {
    NONE_JUMPS.with(|f| f.get())
}

/// `x is None` / `x is not None`.
pub(crate) fn none_test(e: &Expr) -> bool {
    matches!(e, Expr::Compare { ops, comparators, .. }
        if matches!(ops.as_slice(), [CmpOp::Is | CmpOp::IsNot])
            && matches!(comparators.as_slice(), [Expr::Constant { value: Constant::None, .. }]))
}

/// Whether the compiler folds a `not` on an `in` / `is` comparison into its operator before it
/// chooses jumps: through 3.13.
pub(crate) fn folds_not() -> bool {
    FOLDS_NOT.with(|f| f.get())
}

/// A single `in` / `not in` / `is` / `is not` comparison.
fn in_or_is(e: &Expr) -> bool {
    matches!(e, Expr::Compare { ops, .. }
        if ops.len() == 1 && matches!(ops[0], CmpOp::Is | CmpOp::IsNot | CmpOp::In | CmpOp::NotIn))
}

/// Through 3.13: whether `not (v0 and v1 ...)` is better written by De Morgan: more of the
/// operands are negated `in` / `is` comparisons (whose `not` would otherwise stay and change the
/// operator the compiler tests) than plain ones (which a `not` pushed down would change). On
/// 3.14 the `not` around the whole jumps as the pushed-down one does: never needed.
pub(crate) fn de_morgan(values: &[Expr]) -> bool {
    if !folds_not() || values.len() < 2 {
        return false;
    }
    let mut score = 0i32;
    for v in values {
        match v {
            // (a jump on `None` either way: neither)
            v if none_jumps() && none_test(v) => {}
            Expr::UnaryOp {
                op: UnaryOp::Not,
                operand,
            } if none_jumps() && none_test(operand) => {}
            Expr::UnaryOp {
                op: UnaryOp::Not,
                operand,
            } if in_or_is(operand) => score += 1,
            v if in_or_is(v) => score -= 1,
            _ => {}
        }
    }
    score > 0
}

/// The negation of an `in` / `is` comparison written into its operator (a chained comparison's
/// last link, which must stay a comparison); anything else negated as `negate` does.
pub(crate) fn flip_operator(test: Expr) -> Expr {
    match test {
        Expr::Compare {
            left,
            ops,
            comparators,
        } if in_or_is_op(&ops) => {
            let op = match ops[0] {
                CmpOp::Is => CmpOp::IsNot,
                CmpOp::IsNot => CmpOp::Is,
                CmpOp::In => CmpOp::NotIn,
                _ => CmpOp::In,
            };
            Expr::Compare {
                left,
                ops: vec![op],
                comparators,
            }
        }
        other => super::negate(other),
    }
}

fn in_or_is_op(ops: &[CmpOp]) -> bool {
    matches!(ops, [CmpOp::Is | CmpOp::IsNot | CmpOp::In | CmpOp::NotIn])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::structure::negate;

    fn cmp(l: &str, op: CmpOp, r: Expr) -> Expr {
        Expr::Compare {
            left: Box::new(Expr::name(l)),
            ops: vec![op],
            comparators: vec![r],
        }
    }

    fn not(e: Expr) -> Expr {
        Expr::UnaryOp {
            op: UnaryOp::Not,
            operand: Box::new(e),
        }
    }

    fn none() -> Expr {
        Expr::constant(Constant::None)
    }

    #[test]
    fn negated_in_keeps_its_operator() {
        for v in [
            framejit_bytecode::PyVersion::V3_12,
            framejit_bytecode::PyVersion::V3_14,
        ] {
            set_version(v);
            let t = cmp("a", CmpOp::In, Expr::name("b"));
            assert_eq!(negate(t.clone()), not(t.clone()));
            assert_eq!(negate(not(t.clone())), t);
            // (a chained comparison's link stays a comparison)
            assert_eq!(flip_operator(t), cmp("a", CmpOp::NotIn, Expr::name("b")));
        }
    }

    #[test]
    fn none_tests_flip_where_they_jump_on_none() {
        set_version(framejit_bytecode::PyVersion::V3_12);
        let t = cmp("a", CmpOp::Is, none());
        assert_eq!(negate(t), cmp("a", CmpOp::IsNot, none()));
        set_version(framejit_bytecode::PyVersion::V3_10);
        let t = cmp("a", CmpOp::Is, none());
        assert_eq!(negate(t.clone()), not(t));
    }

    #[test]
    fn de_morgan_only_where_it_cancels_negated_tests() {
        set_version(framejit_bytecode::PyVersion::V3_12);
        let neg_in = not(cmp("k", CmpOp::NotIn, Expr::name("d")));
        // `not (x and not k not in d)`: `not x or k not in d`
        let and = Expr::BoolOp {
            op: crate::ast::BoolOp::And,
            values: vec![Expr::name("x"), neg_in],
        };
        assert_eq!(
            negate(and),
            Expr::BoolOp {
                op: crate::ast::BoolOp::Or,
                values: vec![
                    not(Expr::name("x")),
                    cmp("k", CmpOp::NotIn, Expr::name("d"))
                ],
            }
        );
        // `not (a in b or a in c)` stays: the plain tests keep their operator
        let or = Expr::BoolOp {
            op: crate::ast::BoolOp::Or,
            values: vec![
                cmp("a", CmpOp::In, Expr::name("b")),
                cmp("a", CmpOp::In, Expr::name("c")),
            ],
        };
        assert_eq!(negate(or.clone()), not(or.clone()));
        // 3.14: never (the `not` around the whole jumps as the pushed-down one does)
        set_version(framejit_bytecode::PyVersion::V3_14);
        assert_eq!(negate(or.clone()), not(or));
    }
}
