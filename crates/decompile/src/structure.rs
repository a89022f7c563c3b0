//! Statements from blocks: regions of the control flow become `if`, `while`, `for`, `break` and
//! `continue`, decided from dominators, post-dominators and loops (see `flow.rs`), not from the shape of
//! one compiler's output.

use crate::ast::{BoolOp, CmpOp, Constant, Expr, Stmt, UnaryOp};
use crate::error::DecompileError;
use crate::exprs::{Exit, Sim, Val};
use crate::flow::{Cfg, EdgeKind, Loop};
use crate::input::CodeInput;
use framejit_bytecode::{Instr, Item};

mod arm_order;
mod async_break;
mod block_instrs;
mod break_copy_line;
mod break_first;
mod chain_ifexp;
mod clause_break_split;
mod clause_end_copy;
pub(crate) mod closing_return;
mod comp_lines;
mod cond_sense;
mod const_return_copy;
mod copied_blocks;
mod coroutine;
mod dead_clause_end;
mod dead_else;
mod dead_if;
mod dup_tail;
mod else_borrow;
mod except_exit;
mod except_star;
mod exit_in_body;
mod exit_in_copy;
mod finally_break_copy;
mod finally_exits;
mod finally_late_return;
mod finally_tail;
mod finally_wait;
mod guard_continue;
mod handler_break_jump;
mod handler_exit;
mod handler_order;
mod inline_comp;
mod jumped_break;
mod late_exit;
mod legacy_async;
mod legacy_copy_flow;
mod legacy_fin_arms;
mod legacy_join;
mod legacy_latch;
mod legacy_layout;
mod legacy_loop_exits;
mod legacy_try_break;
mod legacy_try_end;
mod legacy_while_exit;
mod legacy_with_break;
mod legacy_with_split;
mod loop_else;
mod loop_exits;
mod loop_return;
mod loop_shapes;
mod loop_tail_copy;
mod nop_break;
mod nop_else;
mod nop_header;
mod shared_tail;
mod straight;
mod try_body_end;
mod try_continue;
mod try_else;
mod try_end_arm;
mod try_loop_exits;
mod try_raise_exit;
mod twice_shapes;
mod walked_exit;
mod while_break;
mod while_fold;
mod while_latch;
mod with_break_exit;
mod with_exits;
mod with_flag;
mod with_tail_split;
pub(crate) use comp_lines::assign_apart;
pub use coroutine::{bare_returns, keep_generator};
use loop_exits::arms_leave;
use loop_shapes::is_in_or_is;
#[path = "legacy_blocks.rs"]
mod legacy_blocks;
#[path = "match_stmt.rs"]
mod match_stmt;
mod shared_handler;
mod spill_branch;

/// The loop a region is inside: where `continue` and `break` go, and the `while` test that a bottom
/// test must repeat to end the body.
#[derive(Clone, Debug, PartialEq)]
struct LoopCtx {
    header: usize,
    /// Where `break` goes.
    exit: Option<usize>,
    /// Where the loop's test leaves for, when that is not `exit`: the loop's `else:` part.
    else_at: Option<usize>,
    /// `while T:` compiled as a guard before a bottom-tested loop: T.
    cond: Option<Expr>,
    /// The guard's test block, where 3.11+ send `continue` (it tests T again): a `continue` too.
    guard: Option<usize>,
}

/// A condition ending a block: where control goes when `test` is `jump_if` (`taken`) and when not
/// (`fall`), and the blocks it spans so far (its first block first).
struct Cond {
    test: Expr,
    jump_if: bool,
    fall: usize,
    taken: usize,
    members: Vec<usize>,
}

/// Where a region continues, and the whole stack there (what a comprehension collects stays under a
/// loop; 3.12+ leave values for `END_FOR` to pop).
struct Next {
    block: Option<usize>,
    carry: Vec<Val>,
}

pub struct Structurer<'a> {
    code: &'a CodeInput,
    cfg: Cfg,
    ipdom: Vec<Option<usize>>,
    /// Blocks reached from the entry without exception edges, found on first use
    /// (`exit_in_body::warm_blocks`).
    warm: std::cell::OnceCell<Vec<bool>>,
    loops: Vec<Loop>,
    /// Times each block was structured (a bound against re-entry on graphs this does not handle).
    visits: Vec<u32>,
    /// Set when a bottom test repeated the guard of the `while` being built.
    bottom_test_seen: bool,
    /// Blocks structured so far, all attempts included: a budget that keeps any input from running long.
    work: usize,
    /// Spill mode: the base depth of the statement whose block runs next (its values stay put).
    spill_base: Option<usize>,
    /// What the last region left on the stack above its base where it reached its stop (`None`
    /// where it ended otherwise): the value an `if`'s arms each compute in generated code.
    stop_carry: Option<Vec<Val>>,
    /// The try statement being structured: where its body's normal path goes on, and the blocks
    /// its clauses' copies of the code after it placed that the normal path reaches too
    /// (`shared_handler`).
    clause_copies: (Option<usize>, Vec<usize>),
    /// Spill mode: values kept across the branch `branch_to` structures next, which its arms start
    /// with over the statement's base.
    arms_carry: Vec<Val>,
    /// Spill mode: values kept across the try statement `try_stmt` structures next (its body
    /// starts with them), and what it leaves on the stack where it ends.
    try_carry: Vec<Val>,
    try_out_carry: Vec<Val>,
    /// Nesting levels of the regions whose caller takes what they leave on the stack at their
    /// stop (`stop_carry`): an `if` arm, a try body and what follows it. Any other region that
    /// ends with values left would lose them: refused.
    carry_regions: Vec<usize>,
    /// Blocks control can reach from the entry (a generated resume function jumps over the
    /// original code it keeps as dead code).
    reachable: Vec<bool>,
    /// The stack depth at each block's entry (from the assembler's stack walk), where known.
    entry_depth: Vec<Option<u32>>,
    /// Handler blocks whose ranges are being structured (blocks they cover may be run), as block
    /// index ranges `lo..=hi`: a try body's handler, or a handler's own region.
    active: Vec<(usize, usize)>,
    /// The try bodies being structured, innermost last: their handler, and the first block found
    /// outside the range (where the body ends).
    try_body: Vec<(usize, Option<usize>)>,
    /// ≤3.10: the branch being structured runs with a try body's value waiting under it (the
    /// finally body's copy on a `return`'s way out): its arms join (`legacy_copy_flow.rs`).
    waiting_branch: bool,
    /// ≤3.10: the stack's length under the statements of a finally body's copy through which a
    /// `return` value waits (`return x  finally: if c: x = 1`): see `Sim::settled`.
    settled_len: usize,
    /// Per entry of `try_body`: the region nesting its body runs at. Only the body's own region ends
    /// it; an arm nested in the body that leaves the handler's range leaves the try (return, break).
    try_depth: Vec<usize>,
    /// How many `region_carry` calls are running.
    nesting: usize,
    /// The loop header whose body is being entered: the header's own block is not a `continue`.
    entering_header: Option<usize>,
    /// Test blocks tried as parts of a compound condition (a budget against pathological code).
    probes: usize,
    /// Real stack entries not on the symbolic stack (the saved exception inside handlers).
    depth_offset: usize,
    /// 3.11+: the symbolic stack length where each saved exception of the handlers being
    /// structured sits (off the symbolic stack), innermost last (`exprs/except_exit.rs`).
    saved_exc: Vec<usize>,
    /// The next block run starts with a with statement's exit call, which is part of that statement.
    expect_exit_call: bool,
    /// Blocks whose code is in the output: a block must not come out twice (a sign of control flow
    /// this structurer misread, which would change what the code does).
    emitted: Vec<bool>,
    /// 3.10: blocks whose first instruction, a `pass`'s NOP, an `else: pass` stands for
    /// (`nop_else.rs`)
    nop_written: Vec<bool>,
    /// 3.12+ generators: the blocks of the compiler's StopIteration handler (no statement's code).
    gen_wrapper: Vec<bool>,
    /// Where a region last stopped because the try body it is in ends there: the depth of that
    /// try body (`try_body.len()`) and the block.
    try_end_stop: Option<(usize, usize)>,
    /// ≤3.10: the block stack's facts (see `legacy_blocks.rs`); `None` for 3.11+.
    legacy: Option<legacy_blocks::Legacy>,
    /// Instructions to skip at the start of each block: a `match` case body starts where the
    /// pattern's code before it in the same block ends.
    resume: Vec<usize>,
    /// How many blocks run so far returned a value computed after they popped a loop's iterator
    /// (`exprs/late_return.rs`).
    late_returns: usize,
    /// 3.11+: code after except clauses' POP_EXCEPT, ending in `return` of a computed value,
    /// placed after their try statement where nothing else follows it (`except_exit.rs`
    /// `place_copied_tail`): its value was computed after any `finally:` copy it starts with.
    clause_late_tails: Vec<Vec<Stmt>>,
    /// 3.12+: the loops' exits split off after an except clause's `break` (`clause_break_split.rs`)
    pub(super) clause_break_exits: Vec<usize>,
    /// Blocks that ran code after popping a loop's iterator, ending in `return`: the code after
    /// the loop the compiler copied into a `break` (`loop_tail_copy.rs`).
    late_tails: Vec<loop_tail_copy::TailSeen>,
    /// The last block run's code after it popped a loop's iterator (`loop_tail_copy.rs`).
    last_tail: Option<loop_tail_copy::TailSeen>,
    /// The blocks the running regions stop at, innermost last.
    stops: Vec<Option<usize>>,
    /// How many `stops` there were when each loop body being structured began (innermost last).
    loop_stops: Vec<usize>,
    /// The test block of the `while` guard whose loop is being tried next (`loop_exits.rs`).
    guard_block: Option<usize>,
    /// Expression tails shared by two arms being structured (`shared_tail.rs`), innermost last:
    /// the block, the POP_TOPs an arm arriving there skips, and the merge.
    holes: Vec<(usize, usize, usize)>,
    /// How many times an arm arrived at the innermost hole.
    hole_hits: usize,
    /// The exit blocks whose copied tails (their last instructions, this many) are where the arms
    /// of the expression being structured meet (`dup_tail.rs`).
    copies_merge: Option<(Vec<usize>, usize)>,
    /// Each block's instructions (`instrs`), listed once.
    block_instrs: Vec<block_instrs::Instrs<'a>>,
}

pub(crate) fn negate(test: Expr) -> Expr {
    match test {
        Expr::UnaryOp {
            op: UnaryOp::Not,
            operand,
        } => *operand,
        // `is` and `in` always give a bool: their negation is exact (not so `==`, `<`: NaN, numpy).
        // 3.11+ `x is not None` for `not x is None` (both jump on `None` alike)
        Expr::Compare {
            left,
            ops,
            comparators,
        } if ops.len() == 1
            && matches!(ops[0], CmpOp::Is | CmpOp::IsNot)
            && cond_sense::none_jumps()
            && is_none_test(&comparators) =>
        {
            let op = match ops[0] {
                CmpOp::Is => CmpOp::IsNot,
                _ => CmpOp::Is,
            };
            Expr::Compare {
                left,
                ops: vec![op],
                comparators,
            }
        }
        // a negated `in` / `is` test stays `not (a in b)` (see `cond_sense`: which operator the
        // compiler tests depends on where the `not` stands; through 3.13 the printer writes a
        // `not` left on the comparison itself into the operator)
        Expr::BoolOp { op, values } if cond_sense::de_morgan(&values) => Expr::BoolOp {
            op: match op {
                BoolOp::And => BoolOp::Or,
                BoolOp::Or => BoolOp::And,
            },
            values: values.into_iter().map(negate).collect(),
        },
        other => Expr::UnaryOp {
            op: UnaryOp::Not,
            operand: Box::new(other),
        },
    }
}

/// `x is None` / `x is not None` (as `comparators`): either spelling jumps on `None` alike.
fn is_none_test(comparators: &[Expr]) -> bool {
    matches!(
        comparators,
        [Expr::Constant {
            value: Constant::None,
            ..
        }]
    )
}

/// The test under which control falls through a branch that jumps when the test is `jump_if`.
fn fall_test(test: Expr, jump_if: bool) -> Expr {
    if jump_if {
        negate(test)
    } else {
        test
    }
}

/// The name an instruction compares by when blocks are checked for being copies of each other:
/// 3.14's borrowed local loads as the loads they stand for (the compiler decides whether to
/// borrow per copy, after copying).
fn copy_name(name: &'static str) -> &'static str {
    match name {
        "LOAD_FAST_BORROW" => "LOAD_FAST",
        "LOAD_FAST_BORROW_LOAD_FAST_BORROW" => "LOAD_FAST_LOAD_FAST",
        n => n,
    }
}

/// Are two instructions the same code in copies of one block (see [`copy_name`])?
pub(super) fn same_code_instr(x: &Instr, y: &Instr) -> bool {
    copy_name(x.op.name) == copy_name(y.op.name) && x.arg == y.arg
}

/// The body with `pass` where it would be empty.
fn or_pass(mut stmts: Vec<Stmt>) -> Vec<Stmt> {
    if stmts.is_empty() {
        stmts.push(Stmt::Pass);
    }
    stmts
}

/// Remove the copy of `fin` that precedes each `return`, `break` and `continue` in `stmts` (not in
/// nested functions or classes); false if an exit has no such copy.
fn strip_finally_copies(stmts: &mut Vec<Stmt>, fin: &[Stmt]) -> bool {
    strip_copies(stmts, fin, false)
}

/// [`strip_finally_copies`]; in a loop nested in the statement (`in_loop`) `break` and `continue`
/// stay inside, only `return` leaves.
fn strip_copies(stmts: &mut Vec<Stmt>, fin: &[Stmt], in_loop: bool) -> bool {
    let is_exit = |s: &Stmt| {
        matches!(s, Stmt::Return { .. }) || (!in_loop && matches!(s, Stmt::Break | Stmt::Continue))
    };
    let mut i = 0;
    while i < stmts.len() {
        // (the way out copied into every end of the copy's final statement: taken off them
        // before the arms are searched for copies of their own)
        if stmts.get(i + 1).is_some_and(is_exit) && exit_in_copy::hoist_into_copy(stmts, i + 1, fin)
        {
            i += 1;
            continue;
        }
        if is_exit(&stmts[i]) {
            let n = fin.len();
            if i < n || stmts[i - n..i] != *fin {
                // (the copies at the ends of the arms of an `if` that falls into the exit)
                // (or the copy followed by an enclosing statement's unwinding: marked)
                let next = finally_exits::distribute_exit(stmts, i, fin)
                    .or_else(|| finally_exits::mark_earlier_copy(stmts, i, fin));
                match next {
                    Some(next) => {
                        i = next;
                        continue;
                    }
                    // (3.10: the way out copied into the copy's final `if`)
                    None if legacy_try_end::hoist_exit_copy(stmts, i) => continue,
                    None => return false,
                }
            }
            // (3.11+: a copy after an except clause's POP_EXCEPT, marked there)
            if late_exit::returns_after_copy(stmts, i - n, i) {
                return false;
            }
            let m = except_exit::drop_marker_before(stmts, i - n, i);
            stmts.drain(i - n - m..i - m);
            i -= n + m;
            // (the mark of a constant `return` out of `for` loops through the copy)
            if i > 0 && const_return_copy::is_mark(&stmts[i - 1]) {
                stmts.remove(i - 1);
                i -= 1;
            }
            // (a nested statement's copy marked before this one's)
            i -= finally_exits::drop_unwind_mark(stmts, i);
        } else {
            let ok = match &mut stmts[i] {
                Stmt::If { body, orelse, .. } => {
                    strip_copies(body, fin, in_loop) && strip_copies(orelse, fin, in_loop)
                }
                // a loop's `else` runs after the loop: its break/continue are the outer loop's
                Stmt::For { body, orelse, .. } | Stmt::While { body, orelse, .. } => {
                    strip_copies(body, fin, true) && strip_copies(orelse, fin, in_loop)
                }
                // (a way out of nested with bodies runs their exit calls, then this copy)
                Stmt::With { body, .. } | Stmt::AsyncWith { body, .. } => {
                    strip_copies(body, fin, in_loop)
                }
                Stmt::Try {
                    body,
                    handlers,
                    orelse,
                    finalbody,
                } => {
                    strip_copies(body, fin, in_loop)
                        && strip_copies(orelse, fin, in_loop)
                        && strip_copies(finalbody, fin, in_loop)
                        && handlers
                            .iter_mut()
                            .all(|h| strip_copies(&mut h.body, fin, in_loop))
                }
                _ => true,
            };
            if !ok {
                return false;
            }
        }
        i += 1;
    }
    true
}

/// Drop a `continue` that ends a loop body, or the arms of a final `if`/`try`/`match` (control goes
/// back to the loop header there anyway).
fn strip_tail_continue(stmts: &mut Vec<Stmt>) {
    strip_tail(stmts, &|s| matches!(s, Stmt::Continue), true, false);
}

/// Drop the statement `redundant` says adds nothing where it ends the code (`continue` at the end of
/// a loop body, `return None` at the end of a function): at the end of `stmts`, and at the ends of
/// the ways through a final `if`, `try` (without `finally`), (`into_with`) `with` or (`into_match`)
/// `match`, into which the compiler copies it. An arm left empty gets `pass`; an `else` left empty goes.
pub(crate) fn strip_tail(
    stmts: &mut Vec<Stmt>,
    redundant: &dyn Fn(&Stmt) -> bool,
    into_match: bool,
    into_with: bool,
) {
    let strip_arm = |arm: &mut Vec<Stmt>| {
        let had = !arm.is_empty();
        strip_tail(arm, redundant, into_match, into_with);
        if had && arm.is_empty() {
            arm.push(Stmt::Pass);
        }
    };
    match stmts.last_mut() {
        Some(s) if redundant(s) => {
            stmts.pop();
            // what is now last may end in its own copy
            if matches!(
                stmts.last(),
                Some(
                    Stmt::If { .. }
                        | Stmt::Try { .. }
                        | Stmt::TryStar { .. }
                        | Stmt::Match { .. }
                        | Stmt::With { .. }
                        | Stmt::AsyncWith { .. }
                )
            ) {
                strip_tail(stmts, redundant, into_match, into_with);
            }
        }
        Some(Stmt::If { body, orelse, .. }) => {
            strip_arm(body);
            strip_tail(orelse, redundant, into_match, into_with);
        }
        Some(
            Stmt::Try {
                body,
                handlers,
                orelse,
                finalbody,
            }
            | Stmt::TryStar {
                body,
                handlers,
                orelse,
                finalbody,
            },
        ) if finalbody.is_empty() => {
            for h in handlers.iter_mut() {
                strip_arm(&mut h.body);
            }
            // (the body's own ending only without `else:`, which it would otherwise run)
            if orelse.is_empty() {
                strip_arm(body);
            } else {
                strip_tail(orelse, redundant, into_match, into_with);
            }
        }
        Some(Stmt::Match { cases, .. }) if into_match => {
            for c in cases {
                strip_arm(&mut c.body);
            }
        }
        // (≤3.10: a `return` out of a final `with` body runs its exit call and then the same as
        // falling out of it, and the compiler copies that exit into each end of the body; 3.11+
        // jump from the body's ends to one exit, as a `continue` jumps back from its own copy)
        Some(Stmt::With { body, .. } | Stmt::AsyncWith { body, .. }) if into_with => {
            strip_arm(body)
        }
        _ => {}
    }
}

/// The start of an except clause's body: `name = <the exception>` (`except T as name:`), taken
/// off with the compiler's unbinding at the clause's ends (`Some(Some(name))`), or the marker of
/// the exception dropped (`Some(None)`). `None`: the body starts with neither.
fn take_clause_binding(stmts: &mut Vec<Stmt>) -> Option<Option<String>> {
    use crate::exprs::EXC;
    let name = match stmts.first() {
        Some(Stmt::Assign {
            targets,
            value: Expr::Name { id, .. },
        }) if id == EXC && targets.len() == 1 => match &targets[0] {
            Expr::Name { id, .. } => Some(id.clone()),
            _ => None,
        },
        _ => None,
    };
    let dropped =
        matches!(stmts.first(), Some(Stmt::Expr { value: Expr::Name { id, .. } }) if id == EXC);
    if let Some(n) = &name {
        stmts.remove(0);
        strip_unbind(stmts, n);
    } else if dropped {
        stmts.remove(0);
    } else {
        return None;
    }
    Some(name)
}

/// Remove the compiler's `name = None; del name` that ends an `except ... as name:` body: at its end
/// (or, when the compiler copied it into the arms of a final `if`/`try`, at their ends), and before
/// every `return` (`break`, `continue` directly in the clause) that leaves the clause, with the
/// marker a value read before it leaves (`exprs::UNBOUND_READ`).
fn strip_unbind(stmts: &mut Vec<Stmt>, name: &str) {
    strip_unbind_in(stmts, name, false, true);
}

fn strip_unbind_in(stmts: &mut Vec<Stmt>, name: &str, in_loop: bool, at_end: bool) {
    // `x = None; del x` (any name): the name
    let pair_name = |a: &Stmt, b: &Stmt| -> Option<String> {
        match (a, b) {
            (
                Stmt::Assign {
                    targets,
                    value:
                        Expr::Constant {
                            value: Constant::None,
                            ..
                        },
                },
                Stmt::Delete { targets: d },
            ) => match (targets.as_slice(), d.as_slice()) {
                ([Expr::Name { id: x, .. }], [Expr::Name { id: y, .. }]) if x == y => {
                    Some(x.clone())
                }
                _ => None,
            },
            _ => None,
        }
    };
    let is_mark = |s: &Stmt| matches!(s, Stmt::Expr { value: Expr::Name { id, .. } } if id == crate::exprs::UNBOUND_READ);
    // the unbinding of `name` (with its marker) in the run of unbindings (of the handlers being
    // left, innermost first) that ends at `i` (exclusive): its range
    let unbind_before = |stmts: &[Stmt], i: usize| -> std::ops::Range<usize> {
        let mut j = i;
        loop {
            let m = usize::from(j > 0 && is_mark(&stmts[j - 1]));
            let k = j - m;
            let found = if k >= 2 {
                pair_name(&stmts[k - 2], &stmts[k - 1])
            } else {
                None
            };
            match found {
                Some(n) if n == name => return k - 2..j,
                Some(_) => j = k - 2,
                None => return i..i,
            }
        }
    };
    let mut i = 0;
    while i < stmts.len() {
        let exit = matches!(stmts[i], Stmt::Return { .. })
            || (!in_loop && matches!(stmts[i], Stmt::Break | Stmt::Continue));
        if exit {
            let r = unbind_before(stmts, i);
            if r.is_empty() && i > 0 {
                // (3.13+ copy the unbinding and the jump into the ways out of an `if` / `try`
                // before the exit: at the ends of its arms)
                strip_final_arms(&mut stmts[i - 1], name, in_loop);
            }
            i -= r.len();
            stmts.drain(r);
        } else {
            match &mut stmts[i] {
                Stmt::If { body, orelse, .. } => {
                    strip_unbind_in(body, name, in_loop, false);
                    strip_unbind_in(orelse, name, in_loop, false);
                }
                Stmt::For { body, orelse, .. } | Stmt::While { body, orelse, .. } => {
                    strip_unbind_in(body, name, true, false);
                    strip_unbind_in(orelse, name, in_loop, false);
                }
                Stmt::Try {
                    body,
                    handlers,
                    orelse,
                    finalbody,
                } => {
                    strip_unbind_in(body, name, in_loop, false);
                    for h in handlers.iter_mut() {
                        strip_unbind_in(&mut h.body, name, in_loop, false);
                    }
                    strip_unbind_in(orelse, name, in_loop, false);
                    strip_unbind_in(finalbody, name, in_loop, false);
                }
                _ => {}
            }
        }
        i += 1;
    }
    if !at_end {
        return;
    }
    // (at the end only the last unbinding: the clause's own comes last)
    let r = unbind_before(stmts, stmts.len());
    if !r.is_empty() && r.end == stmts.len() {
        stmts.drain(r);
        return;
    }
    // the compiler copied the unbinding into the ways out of a final `if` / `try`
    if let Some(last) = stmts.last_mut() {
        strip_final_arms(last, name, in_loop);
    }
}

/// The unbinding at the ends of the arms of `s`, an `if` / `try` whose ways out the compiler
/// copied it into.
fn strip_final_arms(s: &mut Stmt, name: &str, in_loop: bool) {
    match s {
        Stmt::If { body, orelse, .. } => {
            strip_unbind_in(body, name, in_loop, true);
            strip_unbind_in(orelse, name, in_loop, true);
        }
        Stmt::Try {
            body,
            handlers,
            orelse,
            finalbody,
        } if finalbody.is_empty() => {
            for h in handlers.iter_mut() {
                strip_unbind_in(&mut h.body, name, in_loop, true);
            }
            if orelse.is_empty() {
                strip_unbind_in(body, name, in_loop, true);
            } else {
                strip_unbind_in(orelse, name, in_loop, true);
            }
        }
        _ => {}
    }
}

/// Code after a try statement copied into its except clauses: (clause index, statements).
type Tails = Vec<(usize, Vec<Stmt>)>;

/// The placeholder the loop body's first store takes its value from: the loop's item.
const ITEM: &str = "\u{0}for-item";

impl<'a> Structurer<'a> {
    pub fn new(code: &'a CodeInput) -> Self {
        cond_sense::set_version(code.version);
        if let Some((cfg, instrs)) = straight::single_block(&code.bytecode) {
            return Structurer::straight(code, cfg, instrs);
        }
        let mut cfg = Cfg::build(&code.bytecode);
        dead_clause_end::cut_dead_clause_ends(code, &mut cfg);
        legacy_with_split::split_suppressed_tests(code, &mut cfg);
        legacy_with_break::split_break_copies(code, &mut cfg);
        legacy_with_split::merge_exit_copies(code, &mut cfg);
        let legacy = legacy_blocks::Legacy::build(code, &mut cfg);
        if legacy.is_none() {
            nop_header::merge_nop_headers(code, &mut cfg);
            with_tail_split::split_suppressed_tails(code, &mut cfg);
        }
        inline_comp::skip_transparent_handlers(code, &mut cfg);
        let gen_wrapper = coroutine::strip_generator_wrapper(code, &mut cfg);
        let mut loops = cfg.loops();
        if with_break_exit::split_break_copies(code, &mut cfg, &loops) {
            loops = cfg.loops();
        }
        let clause_break_exits = clause_break_split::split_clause_breaks(code, &mut cfg, &loops);
        if !clause_break_exits.is_empty() {
            loops = cfg.loops();
        }
        // (the blocks split off are no generator wrapper's; the flags of the others move on)
        let mut gen_wrapper = gen_wrapper;
        for &x in &clause_break_exits {
            if x <= gen_wrapper.len() {
                gen_wrapper.insert(x, false);
            }
        }
        let ipdom = coroutine::post_dominators(code, &cfg);
        // a `for` loop whose body never goes round again (it always returns or breaks) has no
        // back edge: it is still a loop, of its header alone
        for (b, blk) in cfg.blocks.iter().enumerate() {
            let first = blk
                .instrs
                .iter()
                .find_map(|&i| match code.bytecode.items.get(i) {
                    Some(Item::Instr(ins)) => Some(ins.op.name),
                    _ => None,
                });
            if first == Some("FOR_ITER") && !loops.iter().any(|l| l.header == b) {
                loops.push(Loop {
                    header: b,
                    body: vec![b],
                    latches: Vec::new(),
                });
            }
        }
        loops.sort_by_key(|l| l.header);
        let reachable = reachable_blocks(&cfg);
        // (each block's instructions, listed once: `instrs` hands out shared copies)
        let room = code.bytecode.items.len();
        let block_instrs = block_instrs::Instrs::split(
            room,
            cfg.blocks.iter().map(|blk| {
                blk.instrs
                    .iter()
                    .filter_map(|&i| match code.bytecode.items.get(i) {
                        Some(Item::Instr(ins)) => Some::<&Instr>(ins),
                        _ => None,
                    })
            }),
        );
        let depths =
            framejit_bytecode::assemble::instruction_depths(&code.bytecode).unwrap_or_default();
        let entry_depth = cfg
            .blocks
            .iter()
            .map(|b| {
                b.instrs
                    .first()
                    .and_then(|&i| depths.get(i).copied().flatten())
            })
            .collect();
        let mut s = Structurer::with_graph(
            code,
            cfg,
            ipdom,
            loops,
            reachable,
            entry_depth,
            legacy,
            gen_wrapper,
            block_instrs,
        );
        s.clause_break_exits = clause_break_exits;
        s
    }

    /// The structurer of straight-line code, `cfg` its one block with no edge
    /// (`straight::single_block`): the graph's facts are those of one block, not computed.
    fn straight(code: &'a CodeInput, mut cfg: Cfg, instrs: Vec<&'a Instr>) -> Self {
        // (≤3.10: the block-stack walk still runs, for its errors; a block with no edge has none
        // of the copies and handlers the other set-up passes rewrite)
        let legacy = legacy_blocks::Legacy::build(code, &mut cfg);
        let gen_wrapper = coroutine::strip_generator_wrapper(code, &mut cfg);
        let block_instrs = vec![block_instrs::Instrs::whole(instrs)];
        // (the depth at the code's start; read only at blocks that edges reach or loops head,
        // which one block with no edge is not)
        let entry_depth = vec![Some(0)];
        Structurer::with_graph(
            code,
            cfg,
            vec![None],
            Vec::new(),
            vec![true],
            entry_depth,
            legacy,
            gen_wrapper,
            block_instrs,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn with_graph(
        code: &'a CodeInput,
        cfg: Cfg,
        ipdom: Vec<Option<usize>>,
        loops: Vec<Loop>,
        reachable: Vec<bool>,
        entry_depth: Vec<Option<u32>>,
        legacy: Option<legacy_blocks::Legacy>,
        gen_wrapper: Vec<bool>,
        block_instrs: Vec<block_instrs::Instrs<'a>>,
    ) -> Self {
        let n = cfg.blocks.len();
        Structurer {
            entry_depth,
            active: Vec::new(),
            try_body: Vec::new(),
            warm: std::cell::OnceCell::new(),
            waiting_branch: false,
            settled_len: 0,
            try_depth: Vec::new(),
            nesting: 0,
            entering_header: None,
            probes: 0,
            depth_offset: 0,
            saved_exc: Vec::new(),
            expect_exit_call: false,
            code,
            cfg,
            ipdom,
            loops,
            visits: vec![0; n],
            bottom_test_seen: false,
            work: 0,
            spill_base: None,
            stop_carry: None,
            clause_copies: (None, Vec::new()),
            arms_carry: Vec::new(),
            try_carry: Vec::new(),
            try_out_carry: Vec::new(),
            carry_regions: Vec::new(),
            reachable,
            emitted: vec![false; n],
            nop_written: vec![false; n],
            gen_wrapper,
            try_end_stop: None,
            legacy,
            resume: vec![0; n],
            late_returns: 0,
            clause_late_tails: Vec::new(),
            clause_break_exits: Vec::new(),
            late_tails: Vec::new(),
            last_tail: None,
            stops: Vec::new(),
            loop_stops: Vec::new(),
            guard_block: None,
            holes: Vec::new(),
            hole_hits: 0,
            copies_merge: None,
            block_instrs,
        }
    }

    fn err(&self, msg: impl Into<String>) -> DecompileError {
        DecompileError::new(self.code, msg)
    }

    /// Does the caller of the region being structured take what it leaves at its stop?
    fn takes_carry(&self) -> bool {
        self.carry_regions.last() == Some(&self.nesting)
    }

    /// [`Self::region_carry`] whose caller reads `stop_carry` afterwards.
    fn region_taking_carry(
        &mut self,
        start: usize,
        stop: Option<usize>,
        base: &[Val],
        carry: Vec<Val>,
        lp: Option<&LoopCtx>,
    ) -> Result<Vec<Stmt>, DecompileError> {
        self.carry_regions.push(self.nesting + 1);
        let out = self.region_carry(start, stop, base, carry, lp);
        self.carry_regions.pop();
        out
    }

    /// How many blocks that control reaches lead to block `n`.
    fn live_preds(&self, n: usize) -> usize {
        self.cfg.blocks[n]
            .preds
            .iter()
            .filter(|&&p| self.reachable.get(p).copied().unwrap_or(true))
            .count()
    }

    fn above(&self, stack: &[Val], base: &[Val]) -> Result<Vec<Val>, DecompileError> {
        stack.get(base.len()..).map(<[Val]>::to_vec).ok_or_else(|| {
            if std::env::var("FRAMEJIT_DEBUG_BELOW").is_ok() {
                eprintln!(
                    "below: {stack:?} / {base:?}\n{}",
                    std::backtrace::Backtrace::force_capture()
                );
            }
            self.err("the stack went below the statement's base")
        })
    }

    fn instrs(&self, b: usize) -> block_instrs::Instrs<'a> {
        self.block_instrs[b].clone()
    }

    fn succ(&self, b: usize, kind: EdgeKind) -> Option<usize> {
        self.cfg.blocks[b]
            .succs
            .iter()
            .find(|e| e.kind == kind)
            .map(|e| e.to)
    }

    fn loop_at(&self, header: usize) -> Option<&Loop> {
        self.loops.iter().find(|l| l.header == header)
    }

    /// Does `b` only jump to `header` (3.12+ end a bottom-tested loop with a lone JUMP_BACKWARD)?
    fn jumps_straight_to(&self, b: usize, header: usize) -> bool {
        let ins = self.instrs(b);
        ins.len() == 1
            && ins[0].op.flow == framejit_bytecode::opcode::Flow::Jump
            && self.succ(b, EdgeKind::Jump) == Some(header)
    }

    /// Is this branch the bottom test of a `while` compiled as guard + bottom-tested loop: it goes back
    /// to the header while the loop's condition holds, and leaves to the loop's exit otherwise?
    fn is_bottom_test(
        &self,
        ctx: &LoopCtx,
        taken: usize,
        fall: usize,
        test: &Expr,
        jump_if: bool,
    ) -> bool {
        let Some(cond) = &ctx.cond else { return false };
        let back = |x: usize| x == ctx.header || self.jumps_straight_to(x, ctx.header);
        let (stay, leave, stay_test) = if back(taken) {
            (
                taken,
                fall,
                if jump_if {
                    test.clone()
                } else {
                    negate(test.clone())
                },
            )
        } else {
            (fall, taken, fall_test(test.clone(), jump_if))
        };
        let exit = ctx.else_at.or(ctx.exit);
        // (3.12+: or a block that only jumps there, laid out after the handlers; ≤3.10 as before)
        let through_jump = |e: usize| {
            self.code.version >= framejit_bytecode::PyVersion::V3_11
                && self.resolve_jumps(leave) == e
        };
        let leaves = Some(leave) == exit
            || exit.is_some_and(|e| self.same_exit_copy(leave, e) || through_jump(e));
        // (the same condition however its `not`s are spelt: `not (a and not b)` is `not a or b`)
        back(stay) && leaves && loop_exits::same_test(&stay_test, cond)
    }

    /// Run block `b` from `stack`; its statements, how it ends, and the stack left.
    /// Does control merge after `b`'s branch with more on the stack than the branch leaves (`after`)?
    /// Then the arms compute a value: an expression, not statements.
    fn merges_deeper(&self, b: usize, after: usize) -> bool {
        let Some(m) = self.ipdom[b] else { return false };
        matches!(self.entry_depth[m], Some(d) if d as usize > after + self.depth_offset)
    }

    /// An expression-level branch at the end of block `b`: both arms up to the merge, combined into
    /// `BoolOp` (the jump carries the tested value) or `IfExp`. Returns the stack at the merge.
    fn branch_expr(
        &mut self,
        b: usize,
        test: Expr,
        jump_if: bool,
        keep: bool,
        copy: bool,
        left: Vec<Val>,
    ) -> Result<(Vec<Val>, usize), DecompileError> {
        match self.ipdom[b] {
            Some(merge) => self.branch_expr_at(b, test, jump_if, keep, copy, left, merge),
            // (3.12+ and ≤3.10 copy the statement's exit into each arm)
            None => self.branch_expr_to_copies(b, test, jump_if, keep, copy, left),
        }
    }

    /// [`Self::branch_expr`] whose arms meet at `merge` ([`dup_tail::VIRTUAL`]: at the copies of
    /// one exit tail).
    #[allow(clippy::too_many_arguments)]
    fn branch_expr_at(
        &mut self,
        b: usize,
        test: Expr,
        jump_if: bool,
        keep: bool,
        copy: bool,
        left: Vec<Val>,
        merge: usize,
    ) -> Result<(Vec<Val>, usize), DecompileError> {
        let taken = self
            .succ(b, EdgeKind::Jump)
            .ok_or_else(|| self.err("branch without target"))?;
        let fall = self
            .succ(b, EdgeKind::Fall)
            .ok_or_else(|| self.err("branch without fall-through"))?;
        // `x if a and b else y`: the test's other parts, blocks that only test and jump to the arms
        let (test, jump_if, fall, taken) = if keep || copy {
            (test, jump_if, fall, taken)
        } else {
            self.compound_test(vec![b], &left, test, jump_if, fall, taken, None)
        };
        self.expr_arms(test, jump_if, keep, copy, (fall, taken), left, merge)
    }

    /// The arms of an expression branch (test `test`, true when `jump_if` to `taken`, else falling
    /// to `fall`) up to `merge`, combined into one value on the stack `left`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn expr_arms(
        &mut self,
        test: Expr,
        jump_if: bool,
        keep: bool,
        copy: bool,
        (fall, taken): (usize, usize),
        left: Vec<Val>,
        merge: usize,
    ) -> Result<(Vec<Val>, usize), DecompileError> {
        let mut taken_stack = left.clone();
        if keep {
            taken_stack.push(Val::Expr(test.clone()));
        }
        let mut fall_stack = left;
        let skip = if copy {
            fall_stack.pop();
            1
        } else {
            0
        };
        // (3.14: a copied test whose taken arm drops the copy too only decides the way)
        let mut taken_skip = 0;
        let (keep, copy) = if copy && taken != merge && self.starts_with_pop(taken) {
            taken_stack.pop();
            taken_skip = 1;
            (false, false)
        } else {
            (keep, copy)
        };
        if !keep && !copy && self.arms_share_tail(taken, fall, merge) {
            let arm = |start, stack, skip| shared_tail::Arm { start, stack, skip };
            let taken_arm = arm(taken, taken_stack, taken_skip);
            let fall_arm = arm(fall, fall_stack, skip);
            let stack = self.shared_tail(&test, jump_if, taken_arm, fall_arm, merge)?;
            return Ok((stack, merge));
        }
        let t = self.expr_arm(taken, taken_stack, merge, taken_skip)?;
        let f = self.expr_arm(fall, fall_stack, merge, skip)?;
        if t.len() != f.len() || t.is_empty() || t[..t.len() - 1] != f[..f.len() - 1] {
            return Err(self.err("the arms of an expression leave different stacks"));
        }
        let mut stack = t;
        let tv = match stack.pop() {
            Some(Val::Expr(e)) => e,
            _ => return Err(self.err("an expression arm without a value")),
        };
        let fv = match f.last() {
            Some(Val::Expr(e)) => e.clone(),
            _ => return Err(self.err("an expression arm without a value")),
        };
        let combined = if keep || copy {
            if tv != test {
                return Err(self.err("a short-circuit jump that does not carry its tested value"));
            }
            let op = if jump_if { BoolOp::Or } else { BoolOp::And };
            // `a < b < c` as a value: the second comparison reads the kept middle operand
            if op == BoolOp::And {
                if let Some(chained) = crate::exprs::merge_chain(&test, &fv) {
                    stack.push(Val::Expr(chained));
                    return Ok((stack, merge));
                }
            }
            let mut values = vec![test];
            match fv {
                Expr::BoolOp {
                    op: inner,
                    values: more,
                } if inner == op => values.extend(more),
                other => values.push(other),
            }
            Expr::BoolOp { op, values }
        } else {
            Expr::IfExp {
                test: Box::new(fall_test(test, jump_if)),
                body: Box::new(fv),
                orelse: Box::new(tv),
            }
        };
        stack.push(Val::Expr(combined));
        Ok((stack, merge))
    }

    /// One arm of an expression branch: the blocks from `start` to `stop`, which must make no
    /// statements; the stack they leave. `skip` instructions at the start are the short-circuit's
    /// POP_TOP of the value the arm replaces.
    fn expr_arm(
        &mut self,
        start: usize,
        stack: Vec<Val>,
        stop: usize,
        skip: usize,
    ) -> Result<Vec<Val>, DecompileError> {
        let mut b = start;
        let mut stack = stack;
        let mut skip = skip;
        loop {
            if b == stop {
                return Ok(stack);
            }
            if let Some(arrived) = self.arrive_at_copy(b, skip, stop, &mut stack) {
                return arrived.map(|()| stack);
            }
            if let Some(arrived) = self.arrive_at_hole(b, skip, stop, &mut stack) {
                return arrived.map(|()| stack);
            }
            // (a chained comparison's cleanup, shared by its tests, only moves values: each
            // arm through it computes its own value, and no code comes out twice)
            if self.emitted[b] && self.only_moves_values(b) {
                self.emitted[b] = false;
            }
            if skip == 0 && self.is_send(b) {
                (b, stack) = self.send_loop(b, stack)?;
                continue;
            }
            // 3.14: a block of NOT_TAKEN alone before the arm's POP_TOP
            let only_not_taken = self.instrs(b).iter().all(|i| i.op.name == "NOT_TAKEN");
            if skip > 0 && only_not_taken && self.succ(b, EdgeKind::Jump).is_none() {
                if let Some(n) = self.succ(b, EdgeKind::Fall) {
                    self.emitted[b] = true;
                    b = n;
                    continue;
                }
            }
            let (stmts, exit, left) = self.run_from(b, stack, skip)?;
            skip = 0;
            if !stmts.is_empty() {
                return Err(self.err("a statement inside an expression"));
            }
            match exit {
                Exit::Flow => {
                    b = self
                        .succ(b, EdgeKind::Jump)
                        .or_else(|| self.succ(b, EdgeKind::Fall))
                        .ok_or_else(|| self.err("an expression arm that ends nowhere"))?;
                    stack = left;
                }
                Exit::Branch {
                    test,
                    jump_if,
                    keep,
                    copy,
                } => {
                    let (s, m) = self.branch_expr(b, test, jump_if, keep, copy, left)?;
                    stack = s;
                    b = m;
                }
                _ => return Err(self.err("an expression arm that leaves the code or loops")),
            }
        }
    }

    fn run(
        &mut self,
        b: usize,
        stack: Vec<Val>,
    ) -> Result<(Vec<Stmt>, Exit, Vec<Val>), DecompileError> {
        self.run_from(b, stack, 0)
    }

    /// [`Self::run`] going on through the expression-level branches of a block that makes no
    /// statements (a conditional expression, `and` / `or`) to the block whose exit ends the
    /// expression; returns that block too.
    fn run_past_values(
        &mut self,
        mut b: usize,
        mut stack: Vec<Val>,
    ) -> Result<(Vec<Stmt>, Exit, Vec<Val>, usize), DecompileError> {
        loop {
            let (stmts, exit, left) = self.run(b, stack)?;
            match exit {
                Exit::Branch {
                    test,
                    jump_if,
                    keep,
                    copy,
                } if stmts.is_empty() && (keep || copy || self.merges_deeper(b, left.len())) => {
                    (stack, b) = self.branch_expr(b, test, jump_if, keep, copy, left)?;
                }
                exit => return Ok((stmts, exit, left, b)),
            }
        }
    }

    /// Run block `b` from `stack`, skipping its first `skip` instructions (which must be POP_TOP).
    fn run_from(
        &mut self,
        b: usize,
        stack: Vec<Val>,
        skip: usize,
    ) -> Result<(Vec<Stmt>, Exit, Vec<Val>), DecompileError> {
        self.work += 1;
        if self.work > 16 * self.cfg.blocks.len() + 256 {
            return Err(
                self.err("control flow this decompiler does not structure yet (work budget spent)")
            );
        }
        if let Some((h, _, _)) = self.cfg.blocks[b].handler {
            if !self.active.iter().any(|&(lo, hi)| (lo..=hi).contains(&h)) {
                return Err(self.err("an exception handler this decompiler does not structure yet"));
            }
        }
        // (FRAMEJIT_DEBUG_TWICE=N also shows where block N is placed the first time)
        if twice_shapes::debug_twice().is_some_and(|d| d == b.to_string()) && !self.emitted[b] {
            eprintln!(
                "block {b} placed:\n{}",
                std::backtrace::Backtrace::force_capture()
            );
        }
        if std::mem::replace(&mut self.emitted[b], true) {
            let err = self.err("control flow this decompiler does not structure yet (a block would come out twice)");
            // (FRAMEJIT_DEBUG_TWICE=1 shows the structurer's call chain that reached it again, for
            // whoever works on the decompiler)
            if twice_shapes::debug_twice().is_some() {
                eprintln!(
                    "block {b} again:\n{}",
                    std::backtrace::Backtrace::force_capture()
                );
            }
            // (where, and the block's first instruction, as other errors name theirs)
            let first = self.cfg.blocks[b].instrs.first().copied();
            let err = match self.instrs(b).first() {
                Some(i) => err.op(i.op.name),
                None => err,
            };
            return Err(match first.and_then(|i| self.code.offsets.get(i)) {
                Some(&o) => err.at(o),
                None => err,
            });
        }
        let mut sim = Sim::new(self.code, stack);
        if let Some(base) = self.spill_base.take() {
            sim.spill_floor = base.min(sim.spill_floor);
        }
        sim.saved_exc = self.saved_exc.clone();
        sim.settled = self.settled_len;
        let all = self.instrs(b);
        let resumed = self.resume[b] > 0;
        // (3.14 marks the fall-through arm with NOT_TAKEN before the POP_TOP)
        let lead = if skip > 0 && !resumed {
            all.iter().take_while(|i| i.op.name == "NOT_TAKEN").count()
        } else {
            0
        };
        let skip = if resumed { self.resume[b] } else { skip + lead };
        if (!resumed
            && all
                .iter()
                .take(skip)
                .skip(lead)
                .any(|i| i.op.name != "POP_TOP"))
            || all.len() < skip
        {
            return Err(self.err("a short-circuit arm that does not start by dropping the value"));
        }
        let instrs = &all[skip..];
        let mut exit = Exit::Flow;
        // (a block that only falls through is followed by its successor's first instruction: an
        // exception range can end between `SWAP 2` and `POP_EXCEPT`; only SWAP looks there)
        let fall_next = match self.succ(b, EdgeKind::Jump) {
            None => self
                .succ(b, EdgeKind::Fall)
                .and_then(|n| self.instrs(n).first().map(|i| i.op.name)),
            Some(_) => None,
        };
        let entry_len = sim.stack.len();
        let dead_ifs = self.code.version >= framejit_bytecode::PyVersion::V3_14;
        let mut dead_if_written = false;
        for (k, ins) in instrs.iter().enumerate() {
            // (3.14: where a dead `if` stood, told by the loads after it: `dead_if.rs`)
            if dead_ifs
                && !dead_if_written
                && sim.between_statements()
                && dead_if::stood_at(instrs, k, || self.falls_on(b))
                && (dead_if::borrows_before(instrs, k)
                    || (self.entered_alike(b) && self.reached_start(b)))
                && self.walked_to(b)
            {
                dead_if_written = true;
                sim.out.push(dead_if::dead_if());
            } else if dead_ifs
                && !dead_if_written
                && !sim.between_statements()
                && dead_if::value_split_at(instrs, k)
                && matches!(sim.stack.last(), Some(Val::Expr(_)))
                && self.walked_to(b)
            {
                // (the value on top, a dropped constant test's arm: `dead_if.rs`)
                dead_if_written = true;
                if let Some(Val::Expr(e)) = sim.stack.pop() {
                    sim.stack.push(Val::Expr(dead_if::true_arm(e)));
                }
            }
            sim.next_op = instrs
                .get(k + 1)
                .map(|i| i.op.name)
                .or(fall_next.filter(|_| ins.op.name == "SWAP"));
            let stepped = sim.step(ins).map_err(|e| match e.offset {
                None => {
                    let item = self.cfg.blocks[b].instrs.get(skip + k).copied();
                    match item.and_then(|i| self.code.offsets.get(i)) {
                        Some(&o) => e.at(o),
                        None => e,
                    }
                }
                Some(_) => e,
            })?;
            if let Some(e) = stepped {
                exit = e;
                if k + 1 != instrs.len() {
                    return Err(self.err("a block goes on after its exit").op(ins.op.name));
                }
            }
        }
        sim.check_copies()?;
        // (3.14: a test after a dropped constant one, `True and x`: `dead_if.rs`)
        if let Exit::Branch {
            test, copy: false, ..
        } = &mut exit
        {
            if dead_ifs
                && !resumed
                && sim.out.is_empty()
                && sim.stack.len() == entry_len
                && self.true_and_test(b, instrs)
            {
                *test = Expr::BoolOp {
                    op: BoolOp::And,
                    values: vec![
                        Expr::constant(Constant::Bool(true)),
                        std::mem::replace(test, Expr::constant(Constant::None)),
                    ],
                };
            }
        }
        self.late_returns += usize::from(sim.late_return());
        self.note_tail(b, &sim);
        Ok((sim.out, exit, sim.stack))
    }

    /// The statements of `code`'s body. Where the first attempt refuses, a second one puts values
    /// kept on the stack across statements into temporaries (bytecode a program generated, such
    /// as `torch.compile`'s); its error is the first attempt's when that fails too.
    /// The statements of a comprehension's code object (≤3.11, and generator expressions), with
    /// which of its `if` clauses stand on lines of their own (`comp_lines.rs`).
    pub fn comprehension_statements(
        code: &'a CodeInput,
    ) -> Result<(Vec<Stmt>, Vec<bool>), DecompileError> {
        // (the structurer that reads the lines makes the first attempt too: setting the graph up
        // reads the code and numbers no temporary, and reading the lines changes nothing)
        let mut s = Structurer::new(code);
        let blocks: Vec<usize> = (0..s.cfg.blocks.len()).collect();
        let apart = s.comp_if_lines_apart(&blocks);
        let temps = code.temps.get();
        let first = s.module();
        drop(s);
        Ok((Structurer::second_attempt(code, temps, first)?, apart))
    }

    pub fn statements(code: &'a CodeInput) -> Result<Vec<Stmt>, DecompileError> {
        let temps = code.temps.get();
        let first = Structurer::new(code).module();
        Structurer::second_attempt(code, temps, first)
    }

    /// [`Self::statements`] after its first attempt `first` (`temps`: the temporaries numbered
    /// before it).
    fn second_attempt(
        code: &'a CodeInput,
        temps: usize,
        first: Result<Vec<Stmt>, DecompileError>,
    ) -> Result<Vec<Stmt>, DecompileError> {
        let Err(e) = first else { return first };
        if code.spill.get() {
            return Err(e);
        }
        code.temps.set(temps);
        code.spill.set(true);
        let mut second = Structurer::new(code).module();
        code.spill.set(false);
        // (generated code entering a loop nest in the middle: the same with that loop peeled)
        if second.is_err() {
            if let Some((bytecode, offsets)) =
                crate::peel::peel_loop_entry(&code.bytecode, &code.offsets)
            {
                let mut peeled = code.clone();
                peeled.bytecode = bytecode;
                peeled.offsets = offsets;
                peeled.temps.set(temps);
                peeled.spill.set(true);
                let third = Structurer::new(&peeled).module();
                if std::env::var_os("FRAMEJIT_SPILL_DEBUG").is_some() {
                    if let Err(e3) = &third {
                        eprintln!("peeled: {e3}");
                    }
                }
                if third.is_ok() {
                    code.temps.set(peeled.temps.get());
                    second = third;
                }
            }
        }
        if second.is_err() {
            code.temps.set(temps);
        }
        if let Err(e2) = &second {
            if std::env::var_os("FRAMEJIT_SPILL_DEBUG").is_some() {
                eprintln!("spill mode: {e2}");
            }
        }
        second.map_err(|_| e)
    }

    /// The whole code object.
    pub fn module(&mut self) -> Result<Vec<Stmt>, DecompileError> {
        if self.cfg.blocks.is_empty() {
            return Ok(Vec::new());
        }
        if let Some(e) = self.legacy_error() {
            return Err(e);
        }
        let mut out = self.region(0, None, &[], None)?;
        // (marks of clause ends no enclosing try statement resolved: the reading as it was)
        clause_end_copy::drop_marks(&mut out);
        self.code.shared_tail_return.set(self.shared_tail_return());
        if self.dead_return_none_tail() {
            try_else::tail_into_else(&mut out);
        }
        // an exception handler the statements do not contain would be code silently lost
        for (k, block) in self.cfg.blocks.iter().enumerate() {
            let is_handler = self.instrs(k).first().map(|i| i.op.name) == Some("PUSH_EXC_INFO");
            if is_handler && !self.emitted[k] && !block.preds.is_empty() {
                return Err(self.err("an exception handler the structured code leaves out"));
            }
        }
        Ok(out)
    }

    /// The handler of the try statement that starts at block `b`, if one does: the outermost user
    /// handler (not a with's) in the chain of handlers covering `b` that is not active yet.
    fn try_to_start(&self, b: usize) -> Option<usize> {
        let mut x = self.cfg.blocks[b].handler.map(|x| x.0);
        let mut found = None;
        for _ in 0..self.cfg.blocks.len() {
            let Some(h) = x else { break };
            let names: Vec<&str> = self.instrs(h).iter().take(2).map(|i| i.op.name).collect();
            let user = names.first() == Some(&"PUSH_EXC_INFO")
                && names.get(1) != Some(&"WITH_EXCEPT_START");
            // (a handler of a try nested in an except clause lies inside the enclosing handler's
            // block range but is not active: only the active handlers themselves stop the walk)
            let inside = self.active.iter().any(|&(lo, hi)| h == lo || h == hi);
            if inside {
                break;
            }
            if user {
                found = Some(h);
            }
            x = self.cfg.blocks[h].handler.map(|x| x.0);
        }
        found
    }

    /// Statements from `start` until `stop` (exclusive) or until control leaves.
    fn region(
        &mut self,
        start: usize,
        stop: Option<usize>,
        base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Result<Vec<Stmt>, DecompileError> {
        self.region_carry(start, stop, base, Vec::new(), lp)
    }

    /// [`Self::region`] whose first block starts with `carry` over `base`.
    fn region_carry(
        &mut self,
        start: usize,
        stop: Option<usize>,
        base: &[Val],
        carry: Vec<Val>,
        lp: Option<&LoopCtx>,
    ) -> Result<Vec<Stmt>, DecompileError> {
        self.nesting += 1;
        self.stops.push(stop);
        let out = self.region_blocks(start, stop, base, carry, lp);
        self.stops.pop();
        self.nesting -= 1;
        out
    }

    fn region_blocks(
        &mut self,
        start: usize,
        stop: Option<usize>,
        base: &[Val],
        carry: Vec<Val>,
        lp: Option<&LoopCtx>,
    ) -> Result<Vec<Stmt>, DecompileError> {
        let mut out = Vec::new();
        let mut b = start;
        let mut carry: Vec<Val> = carry;
        // The whole stack for the next block where an await goes on across blocks with values
        // under the statement's base moved (a `return` inside `async with` swaps past __exit__).
        let mut whole: Option<Vec<Val>> = None;
        let mut reached: Option<Vec<Val>> = None;
        let mut fors: Vec<(usize, usize, usize)> = Vec::new();
        loop {
            if Some(b) == stop {
                if loses_work(&carry) && !self.takes_carry() {
                    return Err(self.err("values left on the stack where a region ends"));
                }
                reached = Some(std::mem::take(&mut carry));
                break;
            }
            // (a block already out that only jumps to where this region stops is no code of its
            // own: `if c: A  else: B` ending an outer `if` arm ends with the jump past the outer
            // `else:`, where an `if` in A also jumps when false; 3.11+ the same with an
            // `if`/`elif` ending an inner `if` arm, whose first arm's jump is threaded past it)
            if stop.is_some()
                && self.emitted[b]
                && carry.is_empty()
                && self
                    .lone_instr(b)
                    .is_some_and(|i| matches!(i.op.name, "JUMP_FORWARD" | "JUMP_ABSOLUTE"))
                && self.succ(b, EdgeKind::Jump) == stop
            {
                reached = Some(Vec::new());
                break;
            }
            // A try body ends at the first block its handler does not cover, except a `return`,
            // `break` or `continue` of the body: the compiler leaves the try's range before those.
            if let Some(&(h, found)) = self.try_body.last() {
                let ends = if self.legacy.is_some() {
                    // ≤3.10 (block setups): the first block outside the handler's own range, unless
                    // it is a way out through the finally/with cleanup
                    found.is_none()
                        && self.legacy_try_cover(b) != Some(h)
                        && carry.is_empty()
                        && !self.legacy_exit_path(b)
                        && !self.legacy_break_from_body(b, lp)
                        && !self.legacy_try_break_copy(b, lp)
                } else {
                    let covered = self.covered_by(b, h);
                    let top_level = self.try_depth.last() == Some(&self.nesting);
                    // (a block of NOPs, such as the line marker of a nested `try:`, is no code of
                    // its own, unless it leads out of the range: the next statement's line)
                    let only_nops = self
                        .instrs(b)
                        .iter()
                        .all(|i| matches!(i.op.name, "NOP" | "NOT_TAKEN"))
                        && self.marker_inside_body(b, h);
                    // (spill mode: generated code leaves a try body with values kept)
                    !covered
                        && (carry.is_empty() || self.code.spill.get())
                        && top_level
                        && !only_nops
                        && !self.is_body_exit(b, lp)
                };
                // (≤3.10: inside a loop that the try body holds, reaching the body's end leaves the
                // loop, which only its `break` does: not the end of an arm)
                if ends && self.legacy.is_some() {
                    if let Some(c) = lp {
                        // (an except statement's: a `with` or `finally:` body's end is its cleanup,
                        // which a `return` in the loop runs too)
                        let except = matches!(
                            self.instrs(h).first().map(|i| i.op.name),
                            Some("DUP_TOP" | "POP_TOP")
                        );
                        if except && self.legacy_try_cover(c.header) == Some(h) && Some(b) != c.exit
                        {
                            return Err(self.err(
                                "a way out of a loop to the end of the try body around it that is not the loop's exit",
                            ));
                        }
                    }
                }
                if ends {
                    match found {
                        None => {
                            if let Some(t) = self.try_body.last_mut() {
                                t.1 = Some(b);
                            }
                            if loses_work(&carry) && !self.takes_carry() {
                                return Err(
                                    self.err("values left on the stack where a try body ends")
                                );
                            }
                            self.try_end_stop = Some((self.try_body.len(), b));
                            reached = Some(std::mem::take(&mut carry));
                            break;
                        }
                        Some(x) if x == b || self.same_exit_copy(x, b) => {
                            if loses_work(&carry) && !self.takes_carry() {
                                return Err(
                                    self.err("values left on the stack where a try body ends")
                                );
                            }
                            self.try_end_stop = Some((self.try_body.len(), b));
                            reached = Some(std::mem::take(&mut carry));
                            break;
                        }
                        // paths leave the body to different places (the compiler copied the code
                        // after the try into each): the first one found is not where the try ends
                        Some(_) => return Err(self.err("a try body that ends in two places")),
                    }
                }
            }
            // A try statement starts here: the outermost one whose handler is not active yet (a
            // try nested first in another's body is covered by its own handler, whose code is
            // covered by the outer one's).
            if let Some(h) = self.try_to_start(b) {
                // (spill mode: values generated code keeps across the statement, in temporaries)
                let kept = !carry.is_empty() && self.code.spill.get();
                if carry.is_empty() || kept {
                    if kept {
                        let mut stack = base.to_vec();
                        stack.append(&mut carry);
                        self.try_carry = self.spill_kept(base, stack, &mut out)?;
                    }
                    let (stmts, next) = self.try_stmt(b, h, base, lp)?;
                    out.extend(stmts);
                    carry = std::mem::take(&mut self.try_out_carry);
                    match next {
                        Some(n) => {
                            b = n;
                            continue;
                        }
                        None => break,
                    }
                }
            }
            if let Some(ctx) = lp {
                // (3.12+ `for ... else:` whose `break` is in an except clause of the body, the
                // code after the loop copied after the clause's end and the iterator's pop: the
                // loop's exit is that block, `break_into_copy`; the clause's end runs first)
                let clause_break = (Some(b) == ctx.exit && ctx.else_at.is_some())
                    .then(|| self.clause_break_copy(b))
                    .flatten();
                if let Some(p) = clause_break {
                    let mut stack: Vec<Val> = base.to_vec();
                    stack.append(&mut carry);
                    if let Some(w) = whole.take() {
                        stack = w;
                    }
                    let (stmts, _, left) = self.run_instrs(&self.instrs(b)[..p], stack)?;
                    if left.len() != base.len() && !self.finally_exc_popped(&left, base) {
                        return Err(self.err("a break that leaves values on the stack"));
                    }
                    out.extend(stmts);
                    out.push(Stmt::Break);
                    break;
                }
                if Some(b) == ctx.exit || self.threaded_break(b, ctx) {
                    out.push(Stmt::Break);
                    break;
                }
                // (3.10: a try body's `break`, the copy after its POP_BLOCK, `legacy_try_break.rs`)
                if carry.is_empty() && self.legacy_try_break_copy(b, lp) {
                    if std::mem::replace(&mut self.emitted[b], true) {
                        return Err(self.err("a block would come out twice"));
                    }
                    out.push(Stmt::Break);
                    break;
                }
                // (a block that only jumps back to the header is a `continue` every arm reaching
                // it shares: it does not come out as code of its own)
                let back = carry.is_empty() && self.jumps_straight_to(b, ctx.header);
                if b == ctx.header && self.entering_header != Some(b)
                    || Some(b) == ctx.guard
                    || back
                {
                    // (not inside a try/finally body: a `continue` there leaves through the
                    // finally body's copy, which the mark would come between)
                    if back && !self.in_finally_body(ctx.header) && self.nop_continue(b, ctx) {
                        out.push(nop_header::written_continue_mark());
                    }
                    out.push(Stmt::Continue);
                    break;
                }
            }
            self.visits[b] += 1;
            if self.visits[b] > 64 {
                return Err(self.err("control flow this decompiler does not structure yet"));
            }
            let mut stack: Vec<Val> = base.to_vec();
            stack.append(&mut carry);
            if let Some(w) = whole.take() {
                stack = w;
            }
            // (3.10: a `pass` whose NOP a jump lands on, `nop_else.rs`)
            if stack.len() == base.len() && self.nop_pass_at(b, lp) {
                out.push(Stmt::Pass);
            }
            if self.is_send(b) {
                // an await / yield from: an expression, which goes on in the block it ends at
                let (done, left) = self.send_loop(b, stack)?;
                // 3.11 `async with`: the awaited __aenter__() ends right where the body starts
                let with_starts = left.len() == base.len() + 2
                    && matches!(left.get(base.len()), Some(Val::WithExit))
                    && self.instrs(done).first().map(|i| i.op.name) != Some("END_SEND");
                if with_starts {
                    let (stmts, after, more) = self.with_stmt(done, base, left, lp)?;
                    out.extend(stmts);
                    match after {
                        Some(n) => {
                            b = n;
                            carry = more;
                            continue;
                        }
                        None => break,
                    }
                }
                b = done;
                carry = self.above(&left, base)?;
                whole = Some(left);
                continue;
            }
            let is_async_for = self.instrs(b).first().map(|i| i.op.name) == Some("GET_ANEXT")
                || coroutine::legacy_async_for_end(self.code, &self.cfg, b).is_some();
            if is_async_for
                && self.loop_at(b).is_some()
                && lp.map(|c| c.header) != Some(b)
                && self.inline_comp_at(b, &stack, base.len()).is_none()
            {
                let (stmts, next) = self.async_for_stmt(b, stack, lp)?;
                out.extend(stmts);
                match next.block {
                    Some(n) => {
                        b = n;
                        carry = self.above(&next.carry, base)?;
                        continue;
                    }
                    None => break,
                }
            }
            if let Some(kind) = self.inline_comp_at(b, &stack, base.len()) {
                let next = self.inline_comprehension(b, stack, kind)?;
                match next.block {
                    Some(n) => {
                        b = n;
                        carry = self.above(&next.carry, base)?;
                        continue;
                    }
                    None => break,
                }
            }
            if self.loop_at(b).is_some() && lp.map(|c| c.header) != Some(b) && !self.guard_header(b)
            {
                let iter_at = stack.len().checked_sub(1);
                let (stmts, next) = self.loop_stmt(b, stack, None, lp)?;
                out.extend(stmts);
                // (a `for` loop: its copies of the code after it, `loop_tail_copy.rs`)
                if let (Some(at), Some(Stmt::For { .. })) = (iter_at, out.last()) {
                    fors.push((out.len() - 1, b, at));
                }
                match next.block {
                    Some(n) => {
                        b = n;
                        carry = self.above(&next.carry, base)?;
                        continue;
                    }
                    None => break,
                }
            }
            if self.entering_header == Some(b) {
                self.entering_header = None;
            }
            // ≤3.10: a block ending in SETUP_FINALLY / SETUP_WITH starts a try or with statement
            if let Some((stmts, next, more)) = self.legacy_stmt(b, &stack, base, lp)? {
                out.extend(stmts);
                match next {
                    Some(n) => {
                        b = n;
                        carry = more;
                        continue;
                    }
                    None => break,
                }
            }
            // `match`: the subject stays on the stack through the cases
            if let Some((stmts, next)) = self.try_match(b, &stack, base, lp)? {
                out.extend(stmts);
                match next {
                    Some(n) => {
                        b = n;
                        continue;
                    }
                    None => break,
                }
            }
            // 3.12+ `break` with a copy of the loop's exit (after POP_EXCEPT in an except clause)
            if let Some(k) = self
                .break_copy_at(b, lp)
                .or_else(|| self.popped_break_copy(b, lp))
            {
                if std::mem::replace(&mut self.emitted[b], true) {
                    return Err(self.err("a block would come out twice"));
                }
                let (stmts, _, left) = self.run_instrs(&self.instrs(b)[..k], stack)?;
                if left.len() != base.len() && !self.finally_exc_popped(&left, base) {
                    return Err(self.err("a break that leaves values on the stack"));
                }
                out.extend(stmts);
                out.push(Stmt::Break);
                break;
            }
            // `break` out of with bodies, into which 3.12+ copied the loop's exit
            if let Some(stmts) = self.with_break_copy(b, &stack, base, lp)? {
                out.extend(stmts);
                break;
            }
            self.spill_base = Some(base.len());
            let (mut stmts, exit, left) = self.run(b, stack)?;
            self.mark_closing_return(b, &mut stmts);
            // (a way out after popping a loop's iterator: `loop_tail_copy.rs`)
            if exit == Exit::Exit {
                self.keep_tail(b);
            }
            // an inlined comprehension's setup or end: its saved locals stay on the stack
            let comp_setup = self.comp_setup_or_end(b, &left, base.len(), stmts.is_empty());
            // an async with's exit call is awaited: the statement comes out after the await loop,
            // in a later block (a block that makes no statement and passes values on has not run it)
            let exit_call_awaited =
                stmts.is_empty() && exit == Exit::Flow && left.len() > base.len();
            if !exit_call_awaited && std::mem::take(&mut self.expect_exit_call) {
                let is_exit_call = matches!(stmts.first(), Some(Stmt::Expr { value: Expr::Name { id, .. } }) if id == crate::exprs::WITH_EXIT);
                if !is_exit_call {
                    return Err(self.err("a with statement whose exit call is not where expected"));
                }
                stmts.remove(0);
            }
            let n_stmts = stmts.len();
            out.extend(stmts);
            match exit {
                // (a with statement's exit call in a way out, then code the compiler copied after
                // it: that code is not the body's, see `late_code_after_exit`)
                Exit::Exit
                    if out[out.len() - n_stmts..].iter().any(|s| {
                        matches!(s, Stmt::Expr { value: Expr::Name { id, .. } } if id == crate::exprs::WITH_EXIT)
                    }) && {
                        let ins = self.instrs(b);
                        let legacy = self.legacy.is_some();
                        // (an `async with`'s exit call awaited in the blocks before this one)
                        with_exits::late_code_after_exit(&ins, false, legacy)
                            || (!legacy && with_exits::late_code_after_awaited_exit(&ins, false))
                    } =>
                {
                    return Err(self.err(
                        "a way out of a with body that runs code after its exit call",
                    ));
                }
                Exit::Exit => break,
                Exit::Flow => {
                    let next = self
                        .succ(b, EdgeKind::Jump)
                        .or_else(|| self.succ(b, EdgeKind::Fall));
                    // `with CM [as x]:` — BEFORE_WITH left __exit__ and __enter__() for the body
                    // (3.14: LOAD_SPECIAL left __exit__ and the manager, two values)
                    let exits = left
                        .get(base.len()..)
                        .map_or(0, |s| s.iter().take_while(|v| **v == Val::WithExit).count());
                    if (1..=2).contains(&exits) && left.len() == base.len() + exits + 1 {
                        let start =
                            next.ok_or_else(|| self.err("a with statement without a body"))?;
                        let (stmts, after, more) = self.with_stmt(start, base, left, lp)?;
                        out.extend(stmts);
                        match after {
                            Some(n) => {
                                b = n;
                                carry = more;
                                continue;
                            }
                            None => break,
                        }
                    }
                    // (3.11+ `return` / `break` / `continue` inside a `finally:` handler)
                    if let Some(leave) = self.finally_leave(&left, base, next, lp) {
                        match leave {
                            finally_exits::FinallyLeave::Break => out.push(Stmt::Break),
                            finally_exits::FinallyLeave::Continue => out.push(Stmt::Continue),
                            finally_exits::FinallyLeave::Through(n) => {
                                whole = Some(left);
                                b = n;
                                continue;
                            }
                        }
                        break;
                    }
                    // `break` out of a for loop pops the loop's iterator on its way out
                    let breaks_for = left.len() + 1 == base.len()
                        && matches!(base.last(), Some(Val::Iter(_)))
                        && lp.is_some_and(|c| {
                            next.is_some() && next == c.exit
                                || next.is_some_and(|n| self.legacy_threaded_break(n, c))
                        });
                    if breaks_for {
                        out.push(Stmt::Break);
                        break;
                    }
                    // `break` / `continue` out of a with body, after its exit call
                    if let Some((kept, _)) = with_exits::leaves_withs(base, &left) {
                        // (an async with's exit call, awaited next: the whole stack goes on, with
                        // what is above the values kept as the carry, which is not empty)
                        let into_send = next.is_some_and(|n| self.is_send(n))
                            && matches!(left.iter().rev().nth(1), Some(Val::Send(_)));
                        if let (true, Some(n)) = (into_send, next) {
                            carry = left[kept..].to_vec();
                            whole = Some(left);
                            b = n;
                            continue;
                        }
                        let stmts = out[out.len() - n_stmts..].to_vec();
                        if self.with_exit_path(&stmts, base, left.clone(), next, lp, &mut out)? {
                            break;
                        }
                    }
                    // (the values under the statement are still its base: a block that took
                    // them off and pushed as many others, `return x` out of a `for` loop swapping
                    // x past the iterator it pops, would leave them standing for the base)
                    if left.len() == base.len() && left[..] != *base {
                        // (`return x` out of a `for` loop through a finally body's copy: the
                        // copy and the return run with x where the iterator was)
                        if let Some(n) = self.return_past_iter(base, &left, next, lp) {
                            whole = Some(left);
                            b = n;
                            continue;
                        }
                        return Err(
                            self.err("a block that replaces the values under its statement")
                        );
                    }
                    // (the same out of nested `for` loops, with fewer values than it had)
                    if left.len() < base.len() {
                        if let Some(n) = self.return_past_iter(base, &left, next, lp) {
                            whole = Some(left);
                            b = n;
                            continue;
                        }
                    }
                    // (≤3.10 `return CONSTANT` out of a `for` loop in a try body: the iterator
                    // popped, then POP_BLOCK, the constant loaded after it)
                    if let Some(n) = self.const_return_past_iter(b, base, &left, next) {
                        whole = Some(left);
                        b = n;
                        continue;
                    }
                    // (3.11+: the same through a finally body's copy, `const_return_copy.rs`)
                    if let Some(n) = self.const_return_through_copy(b, base, &left, next) {
                        out.push(const_return_copy::mark());
                        whole = Some(left);
                        b = n;
                        continue;
                    }
                    if left.len() != base.len() {
                        // the iterator GET_ITER left goes into the loop its FOR_ITER heads
                        let into_for = next.is_some_and(|n| {
                            self.loop_at(n).is_some()
                                && matches!(
                                    self.instrs(n).first().map(|i| i.op.name),
                                    Some("FOR_ITER" | "GET_ANEXT")
                                )
                                || coroutine::legacy_async_for_end(self.code, &self.cfg, n)
                                    .is_some()
                        });
                        // the awaited value and None go into the await loop
                        let into_send = next.is_some_and(|n| self.is_send(n))
                            && matches!(left.iter().rev().nth(1), Some(Val::Send(_)));
                        // a try body's last value can be used just outside its range (the compiler
                        // leaves RETURN_VALUE, which cannot raise, out of the range)
                        let leaves_try = self.try_body.last().is_some_and(|&(h, found)| {
                            found.is_none()
                                && next.is_some_and(|n| {
                                    self.cfg.blocks[n].handler.map(|x| x.0) != Some(h)
                                })
                        });
                        // (a comprehension keeps what it collects under the iterator)
                        // straight-line code split in two blocks (where an exception range ends)
                        // (spill mode: a jump to a block that only this one leads to, as in a
                        // generated resume function's prologue jumping into the original code)
                        let straight = (self.succ(b, EdgeKind::Jump).is_none()
                            || self.code.spill.get())
                            && next.is_some_and(|n| self.live_preds(n) == 1);
                        // 3.12+: an await's result crosses into the next block when the await
                        // loop ends in another exception range (an async for's END_SEND)
                        let after_send = self.instrs(b).last().map(|i| i.op.name)
                            == Some("END_SEND")
                            && next.is_some_and(|n| self.cfg.blocks[n].preds == [b]);
                        // spill mode: an `if` arm of generated code ends with values for after the merge
                        let to_stop = self.code.spill.get()
                            && next.is_some()
                            && next == stop
                            && self.takes_carry();
                        if !leaves_try
                            && !to_stop
                            && !comp_setup
                            && !straight
                            && !into_send
                            && !after_send
                            && (!into_for || left.len() < base.len() + 1)
                        {
                            if std::env::var_os("FRAMEJIT_DEBUG_STACK").is_some() {
                                eprintln!(
                                    "stack: block {b} next {next:?} left {} base {}\n{}",
                                    left.len(),
                                    base.len(),
                                    std::backtrace::Backtrace::force_capture()
                                );
                            }
                            return Err(self.err(
                                "a value stays on the stack across blocks (expression-level flow)",
                            ));
                        }
                        carry = self.above(&left, base)?;
                        if into_send {
                            whole = Some(left);
                        }
                    }
                    match next {
                        Some(n) => {
                            // (a written `continue` after the block's statements: kept; an
                            // except clause's too, after its POP_EXCEPT marker, which counts
                            // the mark as leaving: `except_exit::leaving`)
                            if lp.is_some_and(|c| {
                                    n == c.header
                                        && !self.in_finally_body(c.header)
                                        && self.nop_continue(b, c)
                                })
                            {
                                out.push(nop_header::written_continue_mark());
                            }
                            b = n
                        }
                        None => break,
                    }
                }
                Exit::ForIter { .. } => return Err(self.err("FOR_ITER outside a loop header")),
                Exit::Branch {
                    test,
                    jump_if,
                    keep,
                    copy,
                } => {
                    // `if a < b < c:` — the middle operand waits under the first comparison
                    if !keep && !copy && !jump_if && matches!(left.last(), Some(Val::Chain(_))) {
                        // (`x if a < b < c else y`: the arms compute a value)
                        if let Some((stack, merge)) = self.chain_ifexp(b, &test, &left)? {
                            if stack.len() < base.len() {
                                return Err(
                                    self.err("an expression branch pops below its statement")
                                );
                            }
                            carry = self.above(&stack, base)?;
                            b = merge;
                            continue;
                        }
                        let cond = self.chain_cond(b, test, left, base)?;
                        match self.branch_to(b, base, lp, cond, &mut out)? {
                            Some((m, more)) => {
                                b = m;
                                carry = more;
                                continue;
                            }
                            None => break,
                        }
                    }
                    let spill = self.code.spill.get() && !keep && !copy;
                    let deeper = self.merges_deeper(b, left.len());
                    let returned = !keep && !copy && !spill && self.arms_return_a_value(b);
                    if deeper && spill || returned {
                        // generated code: arms that make statements as well as a value
                        let saved = (self.visits.clone(), self.emitted.clone(), self.work);
                        match self.branch_expr(b, test.clone(), jump_if, false, false, left.clone())
                        {
                            Ok((stack, merge)) if stack.len() >= base.len() => {
                                carry = self.above(&stack, base)?;
                                b = merge;
                                continue;
                            }
                            _ => (self.visits, self.emitted, self.work) = saved,
                        }
                    }
                    if spill && (deeper || left.len() != base.len()) {
                        match self.branch_spilled(b, base, lp, test, jump_if, left, &mut out)? {
                            Some((m, more)) => {
                                b = m;
                                carry = more;
                                continue;
                            }
                            None => break,
                        }
                    }
                    if keep || copy || deeper {
                        // `a and b`, `a or b`, `x if c else y`: the arms compute a value
                        let (stack, merge) =
                            self.branch_expr(b, test, jump_if, keep, copy, left)?;
                        if stack.len() < base.len() {
                            return Err(self.err("an expression branch pops below its statement"));
                        }
                        carry = self.above(&stack, base)?;
                        b = merge;
                        continue;
                    }
                    if left.len() != base.len()
                        || finally_wait::popped_iters(base, &left).is_some()
                    {
                        // 3.12+: the arms each end with a copy of the statement's exit
                        if let Some(stmts) = self.dup_tail_ifexp(b, &test, jump_if, &left)? {
                            out.extend(stmts);
                            break;
                        }
                        // a value computed in a try body waits under the statements of the
                        // finally body's copy (`return x` through `finally: if c: ...`)
                        if let Some(waiting) = self.waits_through(base, &left) {
                            let was = std::mem::replace(&mut self.waiting_branch, true);
                            let settled = self.settled_len;
                            if self.legacy.is_some() {
                                self.settled_len = left.len();
                            }
                            let branch = self.branch_stmt(b, &left, lp, test, jump_if, &mut out);
                            self.waiting_branch = was;
                            self.settled_len = settled;
                            match branch? {
                                Some((m, more)) => {
                                    b = m;
                                    carry = [waiting, more].concat();
                                    continue;
                                }
                                None => break,
                            }
                        }
                        return Err(self.err(
                            "a value stays on the stack across a branch (expression-level flow)",
                        ));
                    }
                    match self.branch_stmt(b, base, lp, test, jump_if, &mut out)? {
                        Some((m, more)) => {
                            b = m;
                            carry = more;
                        }
                        None => break,
                    }
                }
            }
        }
        self.place_loop_tails(&mut out, &fors);
        self.stop_carry = reached;
        Ok(out)
    }

    /// A statement-level branch ending block `b` (nothing left on the stack above `base`): an `if`
    /// (its test folded with the test blocks that follow), a `while` compiled as a guard before
    /// its loop, or the bottom test of the loop `lp` (which ends the loop body). Appends the
    /// statements to `out`; returns where structuring goes on, and with what on the stack.
    fn branch_stmt(
        &mut self,
        b: usize,
        base: &[Val],
        lp: Option<&LoopCtx>,
        test: Expr,
        jump_if: bool,
        out: &mut Vec<Stmt>,
    ) -> Result<Option<(usize, Vec<Val>)>, DecompileError> {
        let taken = self
            .succ(b, EdgeKind::Jump)
            .ok_or_else(|| self.err("branch without target"))?;
        let fall = self
            .succ(b, EdgeKind::Fall)
            .ok_or_else(|| self.err("branch without fall-through"))?;
        let cond = Cond {
            test,
            jump_if,
            fall,
            taken,
            members: vec![b],
        };
        self.branch_to(b, base, lp, cond, out)
    }

    /// [`Self::branch_stmt`] of a condition whose targets are given: `fall` is where control goes
    /// when `test` is not `jump_if`; `members` are the blocks the condition spans so far.
    fn branch_to(
        &mut self,
        b: usize,
        base: &[Val],
        lp: Option<&LoopCtx>,
        cond: Cond,
        out: &mut Vec<Stmt>,
    ) -> Result<Option<(usize, Vec<Val>)>, DecompileError> {
        let Cond {
            test,
            jump_if,
            fall,
            taken,
            members,
        } = cond;
        let kept = std::mem::take(&mut self.arms_carry);
        // `if a and b:`, `if not (a or b):`...: test blocks that only decide between the same two
        // targets fold into one condition
        let (test, jump_if, fall, taken) = if kept.is_empty() {
            self.compound_test(members, base, test, jump_if, fall, taken, lp)
        } else {
            (test, jump_if, fall, taken)
        };
        // A bottom test repeating the `while` guard ends the body: control goes back to the loop's
        // test, which is a `continue` where it ends an arm (dropped where it ends the body).
        if lp.is_some_and(|ctx| self.is_bottom_test(ctx, taken, fall, &test, jump_if)) {
            if !kept.is_empty() {
                return Err(self.err("a loop's bottom test with values kept on the stack"));
            }
            self.bottom_test_seen = true;
            out.push(Stmt::Continue);
            return Ok(None);
        }
        // (3.12+: `if not (a and b): continue` before the rest of the body, one shared block)
        let keeps_operator = || {
            self.continue_keeps_operator(fall, taken, &fall_test(test.clone(), jump_if), lp)
                .then_some(false)
        };
        if let Some(cont_taken) = self
            .continue_then_rest(fall, taken, lp)
            .or_else(keeps_operator)
            .filter(|_| kept.is_empty())
        {
            let t = fall_test(test, jump_if);
            let (test, rest) = if cont_taken {
                (negate(t), fall)
            } else {
                (t, taken)
            };
            out.push(Stmt::If {
                test,
                body: vec![Stmt::Continue],
                orelse: Vec::new(),
            });
            return Ok(Some((rest, Vec::new())));
        }
        // `while T:` compiled as a guard (jump past the loop unless T) before its loop.
        if kept.is_empty() && self.loop_at(fall).is_some() && lp.map(|c| c.header) != Some(fall) {
            let saved = (self.visits.clone(), self.emitted.clone());
            let enter = fall_test(test.clone(), jump_if);
            self.guard_block = self.continue_guard(b, fall, base);
            let attempt = self.loop_stmt(fall, base.to_vec(), Some((enter, taken)), lp);
            self.guard_block = None;
            if let Ok((stmts, next)) = attempt {
                out.extend(stmts);
                return match next.block {
                    Some(n) => Ok(Some((n, self.above(&next.carry, base)?))),
                    None => Ok(None),
                };
            }
            (self.visits, self.emitted) = saved;
        }
        // Where both arms leave the code there is no join: the arm laid out first is the body and
        // the other is where the code goes on (`if not c: raise` ... compiles with the raise first).
        // (inside a loop, arms that leave by `continue` / `break` meet where the others do)
        let local = lp.and_then(|ctx| {
            self.loop_merge(b, fall, taken, ctx)
                .or_else(|| self.jumps_to_bottom_test(b, fall, taken, ctx))
        });
        // (inside a loop, a post-dominator beyond the loop, neither its exit nor its header, is
        // where enclosing statements go on: the arms leave this loop before they get there)
        let beyond = |m: usize| {
            lp.is_some_and(|ctx| {
                Some(m) != ctx.exit
                    && m != ctx.header
                    && self
                        .loop_at(ctx.header)
                        .is_some_and(|l| !l.body.contains(&m))
            })
        };
        let ipdom = self.ipdom[b].filter(|&m| !beyond(m));
        // (≤3.9: an `if` ending a loop body whose arms meet only after the loop)
        let ipdom = self.legacy_exit_join(taken, ipdom, lp);
        // (≤3.9: the dead jump past an `else:` says where the statement ends, before any join)
        let layout = self.legacy_raise_then_else(fall, taken, lp);
        let layout = layout.filter(|&m| ipdom.is_none() || ipdom == m);
        let local = if layout.is_some() {
            layout.flatten()
        } else {
            local
        };
        let (merge, fall_first) = match local.or(ipdom) {
            Some(m) => (Some(m), true),
            // an arm that sometimes leaves (`if c: raise`) inside it: no block post-dominates the
            // branch, but the arms' other ways still meet
            None => match self
                .arms_meet(b, fall, taken, lp)
                .or_else(|| self.meet_through_clauses(b, fall, taken, lp))
            {
                Some(m) => (Some(m), true),
                // (≤3.9: `if c: raise` with no `else:`, as the layout says)
                None if self.legacy_raise_without_else(fall, taken) => (Some(taken), true),
                // (an arm that goes on to where the enclosing region stops ends there)
                // (≤3.10: not the stop of a region around the loop the branch is in, beyond the
                // loop: the arm leaves the loop first, by its `break`; a stop of a region inside
                // the loop's body, a `raise` the natural loop leaves out, still ends an arm)
                None if self.stop_reached(b, fall, taken).is_some_and(|m| {
                    // (3.11+: nor where the arms get there only through the loop's header or
                    // exit, `stop_only_past_loop`)
                    !(beyond(m)
                        && self.stop_around_loop()
                        && (self.legacy.is_some()
                            || lp.is_some_and(|ctx| {
                                self.stop_only_past_loop(b, fall, taken, m, ctx)
                            })))
                }) =>
                {
                    (self.stop_reached(b, fall, taken), true)
                }
                // (≤3.9: `if c: raise  else: E`, as the dead jump past E says: E runs to the end)
                None if self.legacy_raise_then_else(fall, taken, lp).is_some() => {
                    (self.legacy_raise_then_else(fall, taken, lp).flatten(), true)
                }
                // (3.12+: `if c: B` ending a loop body, B leaving, tests c and jumps to B over
                // the jump back to the header: that jump is the end of the body, not B)
                None if self.falls_to_latch(fall, taken, lp) => (Some(fall), true),
                // (3.12+ `if a and b: B` ending a loop body, a copy of the jump back per test)
                None if self.ends_body_over_copies(fall, taken, lp) => (Some(taken), true),
                // (3.12+: both arms go back to the header, neither reaches the other: `if`/`else`
                // ending the loop body; the arm laid out first is its body)
                None if self.arms_end_body(b, fall, taken, lp).is_some() => {
                    (self.arms_end_body(b, fall, taken, lp), fall < taken)
                }
                // (`if c: A  else: B` with B leaving and A jumping over it: the statement ends
                // where A's jump goes)
                // (`if c: A  else: B` ending the function, A's end the implicit `return None`)
                None if self.else_ends_function(b, fall, taken, lp) => (None, true),
                None if self.jump_over_leaving_arm(b, fall, taken, lp).is_some() => {
                    (self.jump_over_leaving_arm(b, fall, taken, lp), true)
                }
                // (3.12+: code moved after the handlers going back to the enclosing stop)
                None if self.cold_stop_reached(b, fall, taken).is_some() => {
                    (self.cold_stop_reached(b, fall, taken), true)
                }
                None if fall <= taken => (Some(taken), true),
                // (the taken arm goes back to the loop's header, where the body's end goes: the
                // `if` ends the loop body, its body the arm laid out first)
                None if self.legacy_taken_continues(taken, lp) => (Some(taken), true),
                None => (Some(fall), false),
            },
        };
        // (≤3.9: `if c: break` with no `else:`, more of the body after it)
        let (merge, fall_first) = if self.legacy_break_without_else(fall, taken, merge, lp) {
            (Some(taken), true)
        } else {
            (merge, fall_first)
        };
        // (≤3.9: `if c: raise` / `break` / `continue` whose last instruction is right before the
        // taken arm has no `else:`, wherever else the arms were found to meet; `legacy_layout`)
        let (merge, fall_first) = match self.legacy_leaving_ends_if(fall, taken, merge, lp) {
            m if m != merge => (m, true),
            _ => (merge, fall_first),
        };
        let merge = self.merge_past_tests(b, merge, lp);
        // (3.10+ `if c: break` whose `break` is the loop's exit, copied: the rest is after it)
        let (merge, fall_first) = if merge == Some(fall) && self.break_then_rest(fall, taken, lp) {
            (Some(taken), true)
        } else if merge == Some(taken) && self.break_then_rest(taken, fall, lp) {
            // (`if a or b: break`: the tests' shared `break` laid out before the rest)
            (Some(fall), true)
        } else if merge.is_some()
            && merge == lp.and_then(|c| c.exit)
            && (self.break_laid_first(b, fall, taken, lp)
                || self.for_break_laid_first(b, fall, taken, lp))
        {
            // (`if c: break` then the rest of the body: see `break_first`)
            (Some(taken), true)
        } else {
            (merge, fall_first)
        };
        // (3.11+: an `if` at a try body's top level jumping to the body's end ends there)
        let (merge, fall_first) = match self.try_end_arm(b, fall, taken, merge, lp) {
            Some(x) => (Some(x), true),
            None => (merge, fall_first),
        };
        // (≤3.10: the merge and the arms as the block stack allows)
        let merge = self.legacy_merge(b, merge);
        let open = self.try_body.last().copied();
        let mut then = self.arm_carry(fall, merge, base, kept.clone(), lp)?;
        let then_carry = self.stop_carry.take();
        // (≤3.10: the body arm reached the try body's end: the other arm is not followed by what
        // comes after the if, it ends by leaving)
        let merge = self.legacy_arm_left(open, merge);
        let mut orelse = self.arm_carry(taken, merge, base, kept, lp)?;
        let else_carry = self.stop_carry.take();
        let carry = self.merge_arm_values(then_carry, else_carry, &mut then, &mut orelse)?;
        let tail = if self.legacy_raise_then_else(fall, taken, lp).is_some() {
            if self.legacy_return_then_else(fall, taken) {
                legacy_layout::close_final_if(&mut then);
            }
            Vec::new()
        } else {
            self.legacy_flatten_if(merge, &then, &mut orelse)
        };
        let test = fall_test(test, jump_if);
        // (where the statement goes on when it is the end of a loop body whose arms met at the
        // loop's exit: the header)
        let mut merge = merge;
        if !tail.is_empty() {
            out.push(Stmt::If {
                test,
                body: or_pass(then),
                orelse,
            });
            out.extend(tail);
        } else if matches!(then.as_slice(), [Stmt::Continue])
            && (jump_if || !is_in_or_is(&test))
            && !orelse.is_empty()
            && self.falls_to_latch(fall, taken, lp)
            && lp.is_some_and(|c| {
                merge == Some(c.header)
                    // (3.12 / 3.13: the body ending with `break`, the arms meet at the loop's
                    // exit; the statement at the loop body's own level, not in an arm)
                    || (merge.is_some()
                        && merge == c.exit
                        && (framejit_bytecode::PyVersion::V3_12..=framejit_bytecode::PyVersion::V3_13)
                            .contains(&self.code.version)
                        && self.stops.last().is_none_or(|s| s.is_none())
                        && matches!(orelse.last(), Some(Stmt::Break)))
            })
        {
            // (3.12+: `if c: B` ending a loop body jumps to B when c holds, over a copy of the
            // jump back: that copy is the end of the body, not a `continue` under `not c`; the
            // same layout as `if not c: continue` then B, but `in`/`is` keep the test's sense;
            // jumping to B when c is false: `if not (c): B`, the `not` folded into the jump; not
            // for `in` / `is`, whose `not (a in b)` CPython's AST optimizer makes `a not in b`)
            merge = lp.map(|c| c.header);
            let test = match test {
                t if jump_if => negate(t),
                Expr::UnaryOp {
                    op: UnaryOp::Not,
                    operand,
                } => *operand,
                // (`not (a and not b in c)` by De Morgan: see `cond_sense`)
                t => negate(t),
            };
            out.push(Stmt::If {
                test,
                body: orelse,
                orelse: Vec::new(),
            });
        } else if then.is_empty()
            && !orelse.is_empty()
            && fall_first
            && merge.is_some_and(|m| self.only_jumps_forward_to(fall, m) && !self.loop_edge(m, lp))
        {
            // (an arm of its own that only jumps past the other: written as an empty arm; one
            // that jumps to the loop's exit is a `break`)
            out.push(Stmt::If {
                test,
                body: vec![Stmt::Pass],
                orelse,
            });
        } else if then.is_empty() && !orelse.is_empty() || !fall_first {
            // `if not (a and b): x` reads better than `if a and b: pass else: x`
            out.push(Stmt::If {
                test: negate(test),
                body: or_pass(orelse),
                orelse: then,
            });
        } else {
            // (≤3.9: `else: pass`, a jump past it to the next instruction; `legacy_layout`)
            let orelse = match orelse.is_empty() && fall_first && merge == Some(taken) {
                true if self.legacy_empty_else(fall, taken) => vec![Stmt::Pass],
                // (3.10: `else: pass`'s NOP, `nop_else.rs`)
                _ if orelse.is_empty()
                    && fall_first
                    && !then.is_empty()
                    && self.nop_else(fall, taken, merge, lp) =>
                {
                    self.nop_written[taken] = true;
                    vec![Stmt::Pass]
                }
                _ => orelse,
            };
            out.push(Stmt::If {
                test,
                body: or_pass(then),
                orelse,
            });
        }
        // (an `if` whose every arm leaves the loop body ends it: a `break` or `continue` at the
        // loop's exit or header after it would never run)
        if merge.is_some_and(|m| self.loop_edge(m, lp)) && out.last().is_some_and(arms_leave) {
            return Ok(None);
        }
        Ok(merge.map(|m| (m, carry)))
    }

    /// Block `b`'s one instruction, markers (NOP, NOT_TAKEN) aside; `None` if it has more or none.
    pub(super) fn lone_instr(&self, b: usize) -> Option<framejit_bytecode::Instr> {
        let ins = self.instrs(b);
        let mut real = ins
            .iter()
            .filter(|i| !matches!(i.op.name, "NOP" | "NOT_TAKEN"));
        match (real.next(), real.next()) {
            (Some(i), None) => Some(**i),
            _ => None,
        }
    }

    /// Is block `x` only a forward jump to `m` (markers aside)? The code of an arm written empty
    /// (`if c: pass else: B`), where `if not c: B` would have no block of its own.
    fn only_jumps_forward_to(&self, x: usize, m: usize) -> bool {
        self.lone_instr(x).is_some_and(|one| {
            one.op.flow == framejit_bytecode::opcode::Flow::Jump
                && !one.op.name.starts_with("JUMP_BACKWARD")
        }) && x < m
            && self.succ(x, EdgeKind::Jump) == Some(m)
    }

    /// The first block after `b` that both arms of its branch reach (not through `b`, nor past
    /// the enclosing loop's header or exit), where ways out of the code do not count.
    fn arms_meet(
        &self,
        b: usize,
        fall: usize,
        taken: usize,
        lp: Option<&LoopCtx>,
    ) -> Option<usize> {
        let n = self.cfg.blocks.len();
        let walls: Vec<usize> = lp
            .map(|c| std::iter::once(c.header).chain(c.exit).collect())
            .unwrap_or_default();
        // (≤3.9: a with statement's exit handler, where the manager may suppress the exception
        // and go on after the statement: the arms may meet only that way, `if c: with m: return
        // x  else: with n: return y`, importlib `FileLoader.get_data`)
        let suppresses = |h: usize| {
            self.legacy.is_some()
                && self.code.version <= framejit_bytecode::PyVersion::V3_9
                && self.instrs(h).first().map(|i| i.op.name) == Some("WITH_EXCEPT_START")
        };
        let reach = |start: usize| -> Vec<bool> {
            let mut seen = vec![false; n];
            let mut todo = vec![start];
            while let Some(x) = todo.pop() {
                if x == b || seen[x] {
                    continue;
                }
                seen[x] = true;
                if walls.contains(&x) {
                    continue;
                }
                for e in &self.cfg.blocks[x].succs {
                    if e.kind != EdgeKind::Exception || suppresses(e.to) {
                        todo.push(e.to);
                    }
                }
            }
            seen
        };
        let (rf, rt) = (reach(fall), reach(taken));
        (b + 1..n).find(|&x| rf[x] && rt[x] && !walls.contains(&x))
    }

    /// A chained comparison as a condition: block `b` tested `a op m` with `m` kept (`left` ends with
    /// it); if false, a cleanup block pops `m` and goes to the false target; if true, the next block
    /// compares `m` (and may chain on). The whole comparison, falling through when true.
    fn chain_cond(
        &mut self,
        b: usize,
        test: Expr,
        left: Vec<Val>,
        base: &[Val],
    ) -> Result<Cond, DecompileError> {
        let bad = || "a chained comparison of a shape this decompiler does not know";
        let next = self
            .succ(b, EdgeKind::Fall)
            .ok_or_else(|| self.err(bad()))?;
        let cleanup = self
            .succ(b, EdgeKind::Jump)
            .ok_or_else(|| self.err(bad()))?;
        let names: Vec<&str> = self
            .instrs(cleanup)
            .iter()
            .map(|i| i.op.name)
            .filter(|n| *n != "NOP")
            .collect();
        if names.first() != Some(&"POP_TOP") || self.emitted[cleanup] {
            return Err(self.err(bad()));
        }
        // the cleanup pops `m` and goes to the false target, or (3.12+) runs its own copy of it
        let just_pops = names.len() == 1 || names.len() == 2 && names[1].starts_with("JUMP");
        let false_target = self
            .succ(cleanup, EdgeKind::Jump)
            .or_else(|| self.succ(cleanup, EdgeKind::Fall));
        // (the test may be split where an exception range ends: 3.12+ inlined comprehensions)
        let mut split = Vec::new();
        let mut last = next;
        let (mut stmts, mut exit, mut left2) = self.run(next, left)?;
        while let (Exit::Flow, true, None) =
            (&exit, stmts.is_empty(), self.succ(last, EdgeKind::Jump))
        {
            match self.succ(last, EdgeKind::Fall) {
                Some(n) if self.live_preds(n) == 1 && !self.emitted[n] => {
                    split.push(n);
                    last = n;
                    (stmts, exit, left2) = self.run(n, left2)?;
                }
                _ => break,
            }
        }
        let (first, next) = (next, last);
        let Exit::Branch {
            test: test2,
            jump_if: j2,
            keep: false,
            copy: false,
        } = exit
        else {
            return Err(self.err(bad()));
        };
        if !stmts.is_empty() {
            return Err(self.err(bad()));
        }
        let mut members = vec![b, first, cleanup];
        members.extend(split);
        // the cleanup goes where the whole comparison goes when false
        let joins = |this: &Self, f: usize| {
            if just_pops {
                // (3.12+ may have copied the false target's small exit block)
                false_target.is_some_and(|x| {
                    let (x, f) = (this.resolve_jumps(x), this.resolve_jumps(f));
                    x == f || this.same_code(x, f)
                })
            } else {
                this.copy_of_block(cleanup, 1, f)
            }
        };
        let (rest, t, f) = if matches!(left2.last(), Some(Val::Chain(_))) && !j2 {
            let more = self.chain_cond(next, test2, left2, base)?;
            members.extend(more.members);
            (more.test, more.fall, more.taken)
        } else if left2.len() == base.len() {
            let taken = self
                .succ(next, EdgeKind::Jump)
                .ok_or_else(|| self.err(bad()))?;
            let fall = self
                .succ(next, EdgeKind::Fall)
                .ok_or_else(|| self.err(bad()))?;
            // (where control goes when the comparison is true, when false)
            if !j2 {
                (test2, fall, taken)
            } else if joins(self, taken) {
                // the last comparison jumps to the false target when it holds: `m is None`
                // tested by POP_JUMP_IF_NOT_NONE (3.12+), read as `m is not None` jumping
                // (`negate` is exact only for `is` / `in`; anything else is no comparison then)
                (cond_sense::flip_operator(test2), fall, taken)
            } else {
                (test2, taken, fall)
            }
        } else {
            return Err(self.err(bad()));
        };
        // (a false way that only jumps on: `a == m == b or c`, to the next operand)
        let f = match self.chain_false_jump(next, f) {
            Some(to) if joins(self, to) => {
                members.push(f);
                to
            }
            _ => f,
        };
        if !joins(self, f) {
            return Err(self.err(bad()));
        }
        let merged = crate::exprs::merge_chain(&test, &rest).ok_or_else(|| self.err(bad()))?;
        self.emitted[cleanup] = true;
        Ok(Cond {
            test: merged,
            jump_if: false,
            fall: t,
            taken: f,
            members,
        })
    }

    /// Block `a` from its `skip`-th instruction is a copy of block `b`: the same instructions, going
    /// to the same places (3.12+ copy small blocks into each jump to them).
    pub(super) fn copy_of_block(&self, a: usize, skip: usize, b: usize) -> bool {
        let ia = self.instrs(a);
        let ib = self.instrs(b);
        if ia.len() < skip {
            return false;
        }
        // (no-ops: 3.14 starts a branch's fall-through block with NOT_TAKEN; a NOP keeps the line
        // of a statement that compiles to nothing, a `break` whose copy of the loop's exit has it)
        let real = |i: &&Instr| !matches!(i.op.name, "NOT_TAKEN" | "NOP");
        let (xa, xb): (Vec<&Instr>, Vec<&Instr>) = (
            ia[skip..].iter().copied().filter(real).collect(),
            ib.iter().copied().filter(real).collect(),
        );
        if xa.len() != xb.len() {
            return false;
        }
        let same = xa.iter().zip(&xb).all(|(x, y)| same_code_instr(x, y));
        let succs = |x: usize| -> Vec<usize> {
            let mut v: Vec<usize> = self.cfg.blocks[x]
                .succs
                .iter()
                .filter(|e| e.kind != EdgeKind::Exception)
                .map(|e| e.to)
                .collect();
            v.sort_unstable();
            v
        };
        same && succs(a) == succs(b)
    }

    /// Blocks `a` and `b` run the same instructions (no-ops aside) to the same places.
    fn same_code(&self, a: usize, b: usize) -> bool {
        let code = |x: usize| -> Vec<(&str, framejit_bytecode::Arg)> {
            self.instrs(x)
                .iter()
                .filter(|i| !matches!(i.op.name, "NOP" | "NOT_TAKEN"))
                .map(|i| (copy_name(i.op.name), i.arg))
                .collect()
        };
        let succs = |x: usize| -> Vec<usize> {
            let mut v: Vec<usize> = self.cfg.blocks[x]
                .succs
                .iter()
                .filter(|e| e.kind != EdgeKind::Exception)
                .map(|e| e.to)
                .collect();
            v.sort_unstable();
            v
        };
        code(a) == code(b) && succs(a) == succs(b)
    }

    /// Where control really goes from block `x`: through blocks that only jump.
    fn resolve_jumps(&self, x: usize) -> usize {
        let mut x = x;
        for _ in 0..self.cfg.blocks.len() {
            let names: Vec<&str> = self
                .instrs(x)
                .iter()
                .map(|i| i.op.name)
                .filter(|n| !matches!(*n, "NOP" | "NOT_TAKEN"))
                .collect();
            let only_jump = names.is_empty()
                || names.len() == 1
                    && matches!(
                        names[0],
                        "JUMP_FORWARD"
                            | "JUMP_BACKWARD"
                            | "JUMP_BACKWARD_NO_INTERRUPT"
                            | "JUMP_ABSOLUTE"
                            | "JUMP"
                    );
            match self
                .succ(x, EdgeKind::Jump)
                .or_else(|| self.succ(x, EdgeKind::Fall))
            {
                Some(n) if only_jump => x = n,
                _ => break,
            }
        }
        x
    }

    /// Fold the test blocks that follow block `b`'s branch into one condition. A test block joins when
    /// it has no statements, is reached only from the condition so far, and one of its targets is one
    /// of the condition's: `(c, T, F)` with `c = b` then `(b, T2, F)` gives `(c and b, T2, F)`, and so
    /// on for the four combinations. Returns the test, `jump_if` and the fall/taken targets; the
    /// blocks folded in are marked emitted.
    #[allow(clippy::too_many_arguments)]
    fn compound_test(
        &mut self,
        members: Vec<usize>,
        base: &[Val],
        test: Expr,
        jump_if: bool,
        fall: usize,
        taken: usize,
        lp: Option<&LoopCtx>,
    ) -> (Expr, bool, usize, usize) {
        let (t, f) = if jump_if {
            (taken, fall)
        } else {
            (fall, taken)
        };
        let given = members.len();
        let (cond, t, f, members) = self.fold_condition(members, base, test, t, f, lp);
        if members.len() == given {
            // nothing folded: the original orientation
            return if jump_if {
                (cond, true, f, t)
            } else {
                (cond, false, t, f)
            };
        }
        for &m in &members[given..] {
            self.emitted[m] = true;
        }
        // (the arm laid out first is the body: `if not a or b:` whose folded true target comes
        // after its false one, under the negated condition)
        let last = members.iter().copied().max().unwrap_or(0);
        // (not where the false target is a copy of the jump back: 3.12+ lay `if c: B` ending a
        // loop body out with that copy first)
        let back = |x: usize| {
            self.lone_instr(x)
                .is_some_and(|i| i.op.name.starts_with("JUMP_BACKWARD"))
        };
        // (an arm that is only a jump forward lies where it jumps: the true way out of a chained
        // comparison, `not a and 0 < x < n`, jumps over the comparison's cleanup block)
        let laid = |x: usize| {
            self.succ(x, EdgeKind::Jump)
                .filter(|&m| self.only_jumps_forward_to(x, m))
                .unwrap_or(x)
        };
        if t > f && laid(f) > last && !self.loop_edge(f, lp) && !self.loop_edge(t, lp) && !back(f) {
            return (self.negate_folded(cond, &members), false, f, t);
        }
        // falls through (to `t`) when the condition is true
        (cond, false, t, f)
    }

    /// The condition that starts with `cond` at block `b` (true: to `t`, false: to `f`), grown by
    /// the test blocks after it; with the blocks it spans (`b` first). Marks nothing.
    fn fold_condition(
        &mut self,
        members: Vec<usize>,
        base: &[Val],
        cond: Expr,
        t: usize,
        f: usize,
        lp: Option<&LoopCtx>,
    ) -> (Expr, usize, usize, Vec<usize>) {
        let (mut cond, mut t, mut f) = (cond, t, f);
        let mut members = members;
        'grow: loop {
            for c in [t, f] {
                let Some((ec, tc, fc, spans)) = self.test_block(c, &members, base, lp) else {
                    continue;
                };
                // (3.12+ copy the jump back to a `while` loop's header into each place that goes
                // there: the parts of its bottom test)
                // (3.12+ also copies of one small exit block: `return None` after the loop)
                // (≤3.9: a test whose true way is a `break` block jumps straight to the loop's
                // exit, the block that only jumps there being the next test's: `if a or b:
                // break`; not the loop's own test, where such a block is a `break` after it)
                let first = members.first().copied();
                let breaks = |x: usize, y: usize| {
                    self.code.version <= framejit_bytecode::PyVersion::V3_9
                        && lp.is_some_and(|c| {
                            first != Some(c.header)
                                && c.exit.is_some_and(|e| {
                                    // (one of them the exit itself: two `break` blocks are two
                                    // `if c: break` statements, their jumps not threaded)
                                    (x == e) != (y == e)
                                        && self.resolve_jumps(x) == e
                                        && self.resolve_jumps(y) == e
                                })
                        })
                };
                let same = |x: usize, y: usize| {
                    self.same_place(x, y, lp)
                        || self.exit_copies(x, y)
                        || self.reraise_copies(x, y)
                        || breaks(x, y)
                };
                // (3.12+ `if a and b: B` ending a loop body: each test jumps to the next over its
                // own copy of the jump back, the way on when it is false)
                let same_false = |x: usize, y: usize| same(x, y) || self.latch_copies(x, y, lp);
                // (the place kept for the joined condition: the `break` block rather than the
                // exit its threaded jump went to, so that the loop's own test does not take the
                // condition in as `while c and not (a or b):`)
                let keep = |x: usize, y: usize| {
                    let exit = lp.and_then(|c| c.exit);
                    if x != y && exit == Some(x) && exit != Some(y) && breaks(x, y) {
                        y
                    } else {
                        x
                    }
                };
                let joined = if c == t && same_false(fc, f) {
                    Some((BoolOp::And, ec, tc, keep(f, fc)))
                } else if c == t && same(tc, f) {
                    Some((BoolOp::And, negate(ec), fc, keep(f, tc)))
                } else if c == f && same(tc, t) {
                    Some((BoolOp::Or, ec, keep(t, tc), fc))
                } else if c == f && same(fc, t) {
                    Some((BoolOp::Or, negate(ec), keep(t, fc), tc))
                } else {
                    None
                };
                let Some((op, e, nt, nf)) = joined else {
                    continue;
                };
                cond = match cond {
                    Expr::BoolOp { op: o, mut values } if o == op => {
                        values.push(e);
                        Expr::BoolOp { op, values }
                    }
                    other => Expr::BoolOp {
                        op,
                        values: vec![other, e],
                    },
                };
                (t, f) = (nt, nf);
                members.extend(spans);
                continue 'grow;
            }
            // `if (a if c else b):` — both arms are tests going to the same two places
            if let Some((e, nt, nf, spans)) = self.ifexp_condition(&members, base, &cond, t, f, lp)
            {
                cond = e;
                (t, f) = (nt, nf);
                members.extend(spans);
                continue 'grow;
            }
            break;
        }
        (cond, t, f, members)
    }

    /// The condition `cond` (true: to `t`, false: to `f`) as the test of a conditional
    /// expression tested for truth: `t` and `f` are test blocks that go to the same two places.
    /// The expression, its targets when true and false, and the blocks the arms span.
    fn ifexp_condition(
        &mut self,
        members: &[usize],
        base: &[Val],
        cond: &Expr,
        t: usize,
        f: usize,
        lp: Option<&LoopCtx>,
    ) -> Option<(Expr, usize, usize, Vec<usize>)> {
        if t == f {
            return None;
        }
        let (ea, ta, fa, sa) = self.test_block(t, members, base, lp)?;
        let (eb, tb, fb, sb) = self.test_block(f, members, base, lp)?;
        // (blocks that only jump to one place are that place: 3.12+ copy a loop's jump back)
        let same = |x: usize, y: usize| {
            self.same_place(x, y, lp) || self.resolve_jumps(x) == self.resolve_jumps(y)
        };
        // (an arm compiled with its jump the other way: `if (a if c else not a):` tests `a`
        // in both, jumping on false in one and on true in the other)
        let (eb, tb, fb) = if !same(ta, tb) && same(ta, fb) && same(fa, tb) {
            (negate(eb), fb, tb)
        } else {
            (eb, tb, fb)
        };
        if !same(ta, tb) || !same(fa, fb) || sa.iter().any(|x| sb.contains(x)) {
            return None;
        }
        // (the arm laid out first is the body: the compiler jumps over it to the `else`)
        let e = if f < t {
            Expr::IfExp {
                test: Box::new(negate(cond.clone())),
                body: Box::new(eb),
                orelse: Box::new(ea),
            }
        } else {
            Expr::IfExp {
                test: Box::new(cond.clone()),
                body: Box::new(ea),
                orelse: Box::new(eb),
            }
        };
        Some((e, ta, fa, sa.into_iter().chain(sb).collect()))
    }

    /// Block `c` as a part of the condition made of `members`: only a test (no statements, nothing
    /// left on the stack), reached only from the members, not yet emitted, not a loop header. Its
    /// test (grown by the test blocks after it) with the targets when true and false, and the
    /// blocks it spans.
    fn test_block(
        &mut self,
        c: usize,
        members: &[usize],
        base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Option<(Expr, usize, usize, Vec<usize>)> {
        let b = members[0];
        // (a block of markers only, split from the test it leads into)
        if let Some(d) = self.marker_into(c, members) {
            let with_c: Vec<usize> = members.iter().copied().chain([c]).collect();
            let (e, t, f, spans) = self.test_block(d, &with_c, base, lp)?;
            return Some((e, t, f, [c].into_iter().chain(spans).collect()));
        }
        // (a jump over a chained comparison's cleanup, into the next part)
        if let Some(d) = self.legacy_jump_into(c, members) {
            let with_c: Vec<usize> = members.iter().copied().chain([c]).collect();
            let (e, t, f, spans) = self.test_block(d, &with_c, base, lp)?;
            return Some((e, t, f, [c].into_iter().chain(spans).collect()));
        }
        if self.emitted[c]
            || members.contains(&c)
            || self.loop_at(c).is_some()
            || lp.is_some_and(|ctx| ctx.header == c || ctx.exit == Some(c))
            || self.cfg.blocks[c].handler != self.cfg.blocks[b].handler
            || self.entry_depth[c].map(|d| d as usize) != Some(base.len() + self.depth_offset)
            || !self.cfg.blocks[c]
                .preds
                .iter()
                .all(|&p| members.contains(&p) || self.marker_into(p, members) == Some(c))
        {
            return None;
        }
        self.probes += 1;
        if self.probes > 64 * self.cfg.blocks.len() + 1024 {
            return None;
        }
        // (a test, whole or split, goes on to a block it falls into: where `c` falls into none,
        // as an arm that returns, raises or jumps, the run below cannot make one; it is skipped
        // where it could leave nothing behind either)
        if self.succ(c, EdgeKind::Fall).is_none() && !self.probe_may_leave_trace(c, base) {
            return None;
        }
        let saved = (self.emitted[c], self.work);
        let attempt = self.run(c, base.to_vec());
        (self.emitted[c], self.work) = saved;
        // (a test split in two blocks where an exception range ends before its jump: 3.12+
        // inlined comprehensions, whose ranges leave out the jumps)
        if let Ok((stmts, Exit::Flow, left)) = &attempt {
            let d = self.succ(c, EdgeKind::Fall)?;
            if !stmts.is_empty()
                || self.succ(c, EdgeKind::Jump).is_some()
                || self.cfg.blocks[d].preds != [c]
                || self.emitted[d]
                || self.loop_at(d).is_some()
            {
                return None;
            }
            let saved = (self.emitted[d], self.work);
            let attempt = self.run(d, left.clone());
            (self.emitted[d], self.work) = saved;
            let (taken, fall) = (self.succ(d, EdgeKind::Jump)?, self.succ(d, EdgeKind::Fall)?);
            return match attempt {
                Ok((
                    stmts,
                    Exit::Branch {
                        test,
                        jump_if,
                        keep: false,
                        copy: false,
                    },
                    left,
                )) if stmts.is_empty() && left.len() == base.len() => {
                    let (t, f) = if jump_if {
                        (taken, fall)
                    } else {
                        (fall, taken)
                    };
                    Some(self.fold_condition(vec![c, d], base, test, t, f, lp))
                }
                _ => None,
            };
        }
        let taken = self.succ(c, EdgeKind::Jump)?;
        let fall = self.succ(c, EdgeKind::Fall)?;
        match attempt {
            Ok((
                stmts,
                Exit::Branch {
                    test,
                    jump_if,
                    keep: false,
                    copy: false,
                },
                left,
            )) if stmts.is_empty() && left.len() == base.len() => {
                let (t, f) = if jump_if {
                    (taken, fall)
                } else {
                    (fall, taken)
                };
                // the test blocks after `c` may form a condition of their own: `a and (b or c)`
                Some(self.fold_condition(vec![c], base, test, t, f, lp))
            }
            // (a chained comparison as a part: `a or b < x < c` on ≤3.10, `a and 0 <= x < n` on
            // 3.11+; each reader was measured on its own versions)
            Ok((stmts, Exit::Branch { test, .. }, left))
                if stmts.is_empty() && self.code.version < framejit_bytecode::PyVersion::V3_11 =>
            {
                self.legacy_chain_part(c, test, left, base, lp)
            }
            Ok((
                stmts,
                Exit::Branch {
                    test,
                    jump_if: false,
                    keep: false,
                    copy: false,
                },
                left,
            )) if stmts.is_empty() => self.chain_test(c, base, test, left, lp),
            _ => None,
        }
    }

    /// Could a trial run of block `b` from `base` (whose statements and stack are then dropped)
    /// leave a trace? Two things outlive it: a late return counted (`exprs/late_return.rs`: it
    /// needs a loop's iterator popped, one on the stack it starts from or pushed by the block's
    /// GET_ITER / GET_AITER), and the temporaries it numbered (`CodeInput::fresh_temp`: outside
    /// spill mode only a store or delete of a name with a read of it waiting, or an in-place update
    /// of a collection not being built, takes one: `Sim::materialize`, `Sim::update_in_place`).
    /// (And a spill floor waiting for the next run, which the run would take: one is set only
    /// right before a run, but an error can leave it.)
    fn probe_may_leave_trace(&self, b: usize, base: &[Val]) -> bool {
        self.code.spill.get()
            || self.spill_base.is_some()
            || base.iter().any(|v| matches!(v, Val::Iter(_)))
            || self.instrs(b).iter().any(|i| {
                let n = i.op.name;
                ["STORE_FAST", "STORE_NAME", "STORE_GLOBAL", "STORE_DEREF"]
                    .iter()
                    .any(|s| n.starts_with(s))
                    || matches!(
                        n,
                        "DELETE_FAST"
                            | "DELETE_NAME"
                            | "DELETE_GLOBAL"
                            | "DELETE_DEREF"
                            | "GET_ITER"
                            | "GET_AITER"
                            | "LIST_APPEND"
                            | "SET_ADD"
                            | "MAP_ADD"
                            | "LIST_EXTEND"
                            | "SET_UPDATE"
                            | "DICT_MERGE"
                            | "DICT_UPDATE"
                    )
            })
    }

    /// A block that only leaves: `return` (of a constant, 3.12+ RETURN_CONST) or a jump to the
    /// enclosing loop's header or exit. Inside a try or with body it is a statement of the body.
    fn is_body_exit(&self, b: usize, lp: Option<&LoopCtx>) -> bool {
        if lp.is_some_and(|c| Some(b) == c.exit || b == c.header || Some(b) == c.guard) {
            return true;
        }
        let names: Vec<&str> = self
            .instrs(b)
            .iter()
            .map(|i| i.op.name)
            .filter(|n| !matches!(*n, "NOP" | "NOT_TAKEN"))
            .collect();
        if names == ["RETURN_CONST"] || names == ["LOAD_CONST", "RETURN_VALUE"] {
            return true;
        }
        // an unconditional jump straight to the loop's header or exit
        matches!(names.as_slice(), [j] if j.starts_with("JUMP"))
            && self.succ(b, EdgeKind::Jump).is_some_and(|t| {
                lp.is_some_and(|c| Some(t) == c.exit || t == c.header || Some(t) == c.guard)
            })
    }

    /// `with` whose body starts at `start`; `left` ends with __exit__ and the `__enter__()` result.
    fn with_stmt(
        &mut self,
        start: usize,
        base: &[Val],
        left: Vec<Val>,
        lp: Option<&LoopCtx>,
    ) -> Result<legacy_blocks::Built, DecompileError> {
        use crate::ast::WithItem;
        use crate::exprs::{WITH_ENTER, WITH_EXIT};
        let h = self.cfg.blocks[start]
            .handler
            .map(|x| x.0)
            .ok_or_else(|| self.err("a with body without its handler"))?;
        let names: Vec<&str> = self.instrs(h).iter().take(2).map(|i| i.op.name).collect();
        if names != ["PUSH_EXC_INFO", "WITH_EXCEPT_START"] {
            return Err(self.err("a with statement of a shape this decompiler does not know"));
        }
        use crate::exprs::awaits::{is_marker_call, ASYNC_WITH_ENTER};
        let is_async =
            matches!(left.last(), Some(Val::Expr(e)) if is_marker_call(e, ASYNC_WITH_ENTER));
        let enter_marker = if is_async {
            ASYNC_WITH_ENTER
        } else {
            WITH_ENTER
        };
        let cm = match left.last() {
            Some(Val::Expr(Expr::Call { func, args, .. }))
                if matches!(func.as_ref(), Expr::Name { id, .. } if id == enter_marker)
                    && args.len() == 1 =>
            {
                args[0].clone()
            }
            _ => return Err(self.err("a with statement without its context manager")),
        };
        let mut body_base = base.to_vec();
        let exits = left.len().saturating_sub(base.len() + 1);
        body_base.extend(std::iter::repeat_n(Val::WithExit, exits));
        // (where the body leaves normally, when it also leaves through copies of that exit)
        let normal_exit = self.with_normal_exit(start, h, self.with_suppressed_next(h));
        self.active.push((h, h));
        self.try_body.push((h, None));
        self.try_depth.push(self.nesting + 1);
        let enter = left.last().cloned().into_iter().collect();
        let body = self.region_carry(start, normal_exit, &body_base, enter, lp);
        let at_stop = normal_exit.filter(|_| self.stop_carry.is_some());
        let after = self.try_body.pop().and_then(|t| t.1).or(at_stop);
        self.try_depth.pop();
        self.active.pop();
        let mut body = body?;
        let target = match body.first() {
            Some(Stmt::Assign {
                targets,
                value: Expr::Call { func, .. },
            }) if targets.len() == 1
                && matches!(func.as_ref(), Expr::Name { id, .. } if id == enter_marker) =>
            {
                Some(targets[0].clone())
            }
            Some(Stmt::Expr {
                value: Expr::Call { func, .. },
            }) if matches!(func.as_ref(), Expr::Name { id, .. } if id == enter_marker) => None,
            _ => return Err(self.err("a with body that does not start with its target")),
        };
        body.remove(0);
        // __exit__(None, None, None) is copied before each return/break/continue that leaves the body
        let exit_call = vec![Stmt::Expr {
            value: Expr::name(WITH_EXIT),
        }];
        if !strip_finally_copies(&mut body, &exit_call) {
            return Err(self.err("an exit from a with body without its __exit__ call"));
        }
        // The handler's blocks are the compiler's own: the exception-suppressed path ends with
        // POP_TOP, POP_EXCEPT, POP_TOP, POP_TOP and goes on where the statement ends.
        let suppressed = self.with_suppressed(h, exits);
        // (3.11+: no block of its own where the body never completes: the code after the
        // statement follows in the handler's block, or a jump there)
        // (3.11+: where the code at the normal way out is not what the suppressed path goes on
        // to, the body never completes: that code is its own last `return`, after the exit call
        // the compiler copied, and the statement goes on where the suppressed path does)
        let mut after = after;
        let mut flagged = None;
        // (spill mode: what the readings below mark placed, for `with_flag` to take back)
        let placed = self.code.spill.get().then(|| self.emitted.clone());
        let differs =
            |s: &Self| s.err("a with statement whose code after it differs on the suppressed path");
        let last_exit = match after {
            Some(a) if is_async => match self.async_with_last_exit(h, exits, suppressed, a) {
                // (a constant `return` read through the loop's own exit block, where that is
                // what the awaited exit call goes on to: `break`, the block stays the loop's)
                Some((_, blocks))
                    if lp.and_then(|c| c.exit).is_some_and(|x| blocks.contains(&x)) =>
                {
                    let blocks = self
                        .async_with_last_break(a, lp)
                        .ok_or_else(|| differs(self))?;
                    Some((vec![Stmt::Break], blocks))
                }
                Some((last, blocks)) => (!last.is_empty()).then_some((last, blocks)),
                // (`break` out of a `while` loop: the awaited exit call, then the loop's exit or
                // 3.12+ its copy, `async_break.rs`)
                None => {
                    let blocks = self
                        .async_with_last_break(a, lp)
                        .ok_or_else(|| differs(self))?;
                    Some((vec![Stmt::Break], blocks))
                }
            },
            Some(a) if !self.with_after_agrees(h, exits, suppressed, a) => {
                // (a `break` whose copy of the loop's exit the compiler inlined there is refused
                // too: read as the code after the statement, it would run on the suppressed path)
                match self.with_body_last_exit(a, exits) {
                    Some(last) => Some(last),
                    // (`continue` / `break` of the loop around, after the exit calls)
                    // (3.12+: `break` with the loop's exit copied after the exit calls)
                    None => match self.with_last_break_copy(a, &body_base, lp)? {
                        Some(last) => Some((last, Vec::new())),
                        None => match self.body_last_exit_path(a, &body_base, lp) {
                            Ok(Some(last)) => Some((last, Vec::new())),
                            // (spill mode: the two ways on told apart by a flag, `with_flag.rs`)
                            _ => match self.with_flag(a, base, exits, placed, lp)? {
                                Some(f) => {
                                    flagged = Some(f);
                                    None
                                }
                                None => return Err(differs(self)),
                            },
                        },
                    },
                }
            }
            _ => None,
        };
        if let Some((last, blocks)) = last_exit {
            body.extend(last);
            for x in blocks {
                self.emitted[x] = true;
            }
            after = None;
        }
        let flagged = flagged.map(|f: with_flag::WithFlag| {
            body.push(f.set);
            after = None;
            (f.init, f.normal)
        });
        let mut jumps_on = None;
        let mut tail = Vec::new();
        if suppressed.is_none() && after.is_none() {
            jumps_on = match self.with_suppressed_only_returns(h, exits) {
                // (the suppressed path returns None: a copy of the function's closing `return`,
                // which comes after the statement, so that an arm the statement ends does not
                // complete where its manager suppresses; where nothing follows, the closing
                // return goes again, `drop_tail_return`, and `with_arm_else` gives an arm followed
                // by the rest of the function its `else:` back. Without it the rest ran on the
                // suppressed path: `if c: with m: return x` `else: with n: return y`)
                Some(None) => {
                    tail = vec![Stmt::Return {
                        value: Some(Expr::constant(crate::ast::Constant::None)),
                    }];
                    None
                }
                Some(j) => j,
                // (the code after the statement, copied after the pops: it follows the statement;
                // code using values under the statement's reads them as placeholder markers, and a
                // marker left in the output refuses the code object)
                None => match self.with_suppressed_rest(h, exits, false) {
                    Some((copy, to)) => {
                        tail = copy;
                        to
                    }
                    None => Some(self.suppressed_runs_on(h).ok_or_else(|| {
                        self.err("a with statement whose suppressed path runs on in its handler")
                    })?),
                },
            };
        }
        let cleanup = self.cfg.blocks[h].handler.map(|x| x.0);
        for x in h..=suppressed.unwrap_or(h).max(cleanup.unwrap_or(h)) {
            self.emitted[x] = true;
        }
        let end_by_handler = suppressed.and_then(|x| {
            self.succ(x, EdgeKind::Jump)
                .or_else(|| self.succ(x, EdgeKind::Fall))
        });
        let items = vec![WithItem {
            context_expr: cm,
            optional_vars: target,
        }];
        let stmt = if is_async {
            Stmt::AsyncWith {
                items,
                body: or_pass(body),
            }
        } else {
            Stmt::With {
                items,
                body: or_pass(body),
            }
        };
        match after {
            // the normal way out starts with the exit call: run it with __exit__ on the stack, and
            // drop the call (the `with` statement is it)
            Some(a) => {
                self.expect_exit_call = true;
                Ok((vec![stmt], Some(a), vec![Val::WithExit; exits]))
            }
            None => {
                let (init, normal) = match flagged {
                    Some((init, normal)) => (Some(init), Some(normal)),
                    None => (None, None),
                };
                Ok((
                    init.into_iter()
                        .chain([stmt])
                        .chain(normal)
                        .chain(tail)
                        .collect(),
                    end_by_handler.or(jumps_on),
                    Vec::new(),
                ))
            }
        }
    }

    /// `try:` whose body starts at `b` and whose handler block is `h` (3.11+ exception table).
    fn try_stmt(
        &mut self,
        b: usize,
        h: usize,
        base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Result<(Vec<Stmt>, Option<usize>), DecompileError> {
        // The handler's own code is covered by a cleanup handler (COPY 3; POP_EXCEPT; RERAISE 1),
        // the last block of the statement; what follows it is where the statement ends.
        let cleanup = self.cfg.blocks[h]
            .handler
            .map(|x| x.0)
            .ok_or_else(|| self.err("a handler without its cleanup"))?;
        let cleanup_names: Vec<&str> = self.instrs(cleanup).iter().map(|i| i.op.name).collect();
        if cleanup_names != ["COPY", "POP_EXCEPT", "RERAISE"] || cleanup < h {
            return Err(self.err("an exception handler of a shape this decompiler does not know"));
        }
        let star = self.is_star_handler(h, cleanup);
        // (only if control gets there: where the body and every clause leave, nothing follows, and
        // the next block is someone else's, such as an enclosing with's handler)
        let next = cleanup + 1;
        let reached = next < self.cfg.blocks.len()
            && (b..=cleanup).any(|x| {
                self.cfg.blocks[x]
                    .succs
                    .iter()
                    .any(|e| e.kind != EdgeKind::Exception && e.to == next)
            });
        // (not a handler the compiler adds around the whole body: the try ends the code there)
        // (nor the exit of the loop the statement is in, which 3.14 lays out after the handler:
        // a clause that goes there ends by `break`)
        let end = reached.then_some(next).filter(|&e| {
            !inline_comp::transparent(self.code, &self.cfg, e)
                && !self.gen_wrapper[e]
                && !self.clause_break_stop(e, lp)
        });
        // (3.12+ may place the code after the statement before the handler: the clauses jump back)
        let end = match star {
            true => self.star_join(h, cleanup, lp).or(end),
            false => end,
        };
        let end = end.or_else(|| self.clauses_join(h, cleanup, lp));
        // the body
        self.active.push((h, h));
        self.try_body.push((h, None));
        self.try_depth.push(self.nesting + 1);
        let kept = std::mem::take(&mut self.try_carry);
        let spill = !kept.is_empty();
        let late_before = self.late_returns;
        let tails_before = self.clause_late_tails.len();
        // (not a finally body: the ways out of the body run its copies, outside the range)
        let first =
            (!spill && self.legacy.is_none() && self.has_except_clauses(h, cleanup)).then(|| {
                (
                    self.visits.clone(),
                    self.emitted.clone(),
                    self.bottom_test_seen,
                )
            });
        let mut body = self.region_taking_carry(b, None, base, kept, lp);
        let mut body_left = self.stop_carry.take().unwrap_or_default();
        // (an arm inside the body that ran on past the body's end: read again, stopping there,
        // `try_body_end.rs`)
        if let Some(before) = first.filter(|_| body.is_ok()) {
            if let Some((again, left)) = self.body_to_end(b, h, base, lp, before, late_before) {
                body = Ok(again);
                body_left = left;
            }
        }
        let late_in_body = self.late_returns != late_before;
        let after = self.try_body.pop().and_then(|t| t.1);
        self.try_depth.pop();
        self.active.pop();
        let mut body = body?;
        // (spill mode: what the body leaves for after the statement is computed inside it)
        let body_left = self.keep_in_temps(body_left, &mut body, spill)?;
        // where the clauses stop: where the statement ends; else where the body leaves its range,
        // when a clause goes there too (3.11+ lay the handlers out after the code, so the block
        // after them says nothing); else where the region the statement is in stops (a try as
        // the last statement of an `if` arm)
        let follow = match (end, after) {
            (None, Some(a)) => self.try_follow(a, h, cleanup, lp),
            _ => None,
        };
        let end = end.or(follow);
        let stop = end.or_else(|| self.stops.last().copied().flatten());
        // the handler, with the exception on the stack (and the saved one off the symbolic stack)
        self.active.push((h, cleanup));
        self.depth_offset += 1;
        self.saved_exc.push(base.len());
        let outer = std::mem::replace(&mut self.clause_copies, (after, Vec::new()));
        let handlers = self.handler_clauses(h, cleanup, stop, base, lp);
        // (blocks the clauses' copies of the code after the statement placed, which the normal
        // path's copy reaches too: a handler under both)
        let shared = std::mem::replace(&mut self.clause_copies, outer).1;
        self.saved_exc.pop();
        self.depth_offset -= 1;
        self.active.pop();
        let (mut handlers, mut finalbody, tails, exit_copies) = handlers?;
        // (a finally statement whose body went on into the code after it: that code leaves, as
        // the body's ways out through their copies do, and is the body's)
        let end = end.filter(|&e| finalbody.is_none() || !self.emitted[e]);
        self.emitted[cleanup] = true;
        // (3.12+: which blocks the code after the body places, to tell an `else:` part from the
        // code after the statement by where its handlers lie: `handler_order.rs`)
        let emitted_before = (finalbody.is_none()
            && !star
            && self.code.version >= framejit_bytecode::PyVersion::V3_12)
            .then(|| self.emitted.clone());
        // what runs after the body on the normal path: `else:` for except, the copy of `finally:`
        let (mut rest, mut end) = match after {
            Some(a) if Some(a) != stop => {
                let (r, found) = self.else_region(a, stop, base, body_left, lp)?;
                self.try_out_carry = self.stop_carry.take().unwrap_or_default();
                // (where the else part leaves an enclosing try's body, the statement ends there)
                (r, if found != stop { found } else { end })
            }
            _ => {
                self.try_out_carry = body_left;
                (Vec::new(), end)
            }
        };
        let mut after_try = Vec::new();
        // code after the statement copied into clauses goes after it again
        let completes = after.is_some() || except_exit::ends_in_with(&body);
        let placed = self.place_copied_tail(&tails, &mut rest, end, completes, base, lp);
        // (the clauses' copy, kept as the code after the statement or in its clause, placed
        // them; where the normal path placed them again, they would come out twice)
        if placed.is_none() && shared.iter().any(|&x| self.emitted[x]) {
            return Err(self.err(
                "a block would come out twice (a handler of code copied into an except clause)",
            ));
        }
        if placed.is_none() || end.is_none() {
            shared.iter().for_each(|&x| self.emitted[x] = true);
        }
        if let Some(t) = placed {
            after_try = t;
        } else if let Some(t) = (tails.is_empty()
            && !star
            && finalbody.is_none()
            && end.is_none()
            && self.code.version >= framejit_bytecode::PyVersion::V3_12)
            .then(|| {
                // (a `with` at the body's end completes it where its manager suppresses)
                let completes = after.is_some() || except_exit::ends_in_with(&body);
                except_exit::hoist_leaving_tail(&mut handlers, &exit_copies, &mut rest, completes)
            })
            .flatten()
        {
            after_try = t;
        } else {
            // (else it stays, marked, for an enclosing finally to recognise as its copy; the
            // code after an except* statement is no clause's)
            if star {
                after_try = self.star_tail(tails, after, &mut rest, end, (b, cleanup), base, lp)?;
                // (the handler is then the only way out: nothing else follows the statement)
                if !after_try.is_empty() {
                    end = None;
                }
            } else {
                for (k, t) in tails {
                    if let Some(c) = handlers.get_mut(k) {
                        except_exit::put_back(&mut c.body, t);
                    }
                }
            }
        }
        // (arms of the clauses that end them with a copy of the code after the statement)
        let usable = finalbody.is_none() && !star;
        if usable && after_try.is_empty() && end.is_none() {
            let found =
                clause_end_copy::hoist_marked(&mut handlers, &exit_copies, &mut rest, &body);
            if let Some(t) = found {
                after_try = t;
            }
        }
        // (a try statement at the top level of an enclosing try body, whose end is that body's:
        // the clauses' copies may be of the code after the enclosing statement, which resolves
        // the marks)
        let carry_up = usable && after_try.is_empty() && self.in_try_body_top();
        // (a `finally:` statement resolves none: marks carried up into its body's copies, in the
        // normal path's code or the handler's body, would tell the copies apart)
        if let Some(f) = finalbody.as_mut() {
            clause_end_copy::drop_marks(f);
            clause_end_copy::drop_marks(&mut rest);
        }
        if carry_up {
            clause_end_copy::mark_own_copies(&mut handlers, &exit_copies);
        } else {
            let bodies = handlers.iter_mut().map(|h| &mut h.body);
            clause_end_copy::resolve(bodies.chain([&mut body]), &after_try, usable);
        }
        let stmt = if let Some(finalbody) = finalbody {
            // (`finally: pass` compiles to nothing: its copies are empty)
            let fin_copy: &[Stmt] = match finalbody.as_slice() {
                [Stmt::Pass] => &[],
                f => f,
            };
            // the normal path runs the copy of the finally body, then what follows the statement
            // (in the same block when nothing jumps there)
            // (none when the body never comes out of its range normally: every way out is a
            // return, break, continue or raise, each checked for its copy below)
            let no_normal_path = after.is_none() && rest.is_empty();
            if !no_normal_path {
                let next = self
                    .normal_copy_tails(&rest, fin_copy, end, base, lp)
                    .or_else(|| {
                        // (3.14: dead `if`s read in the walked copy alone, `dead_if.rs`)
                        let plain = dead_if::without_dead_ifs(&rest);
                        let differ = plain != rest;
                        differ
                            .then(|| self.normal_copy_tails(&plain, fin_copy, end, base, lp))
                            .flatten()
                    });
                let Some(next) = next else {
                    return Err(self.err("a finally block whose normal-path copy differs"));
                };
                after_try.splice(0..0, next);
                // (that code leaves: nothing after it is the statement's)
                if finally_exits::ends_by_leaving(&after_try) {
                    end = None;
                }
            }
            // (a `return` computed after a loop's iterator was popped, past what may be this
            // body's copy: the code after the loop, which must run after the copy)
            if late_in_body {
                return Err(self.err(late_exit::LATE_RETURN));
            }
            // (the same after an except clause's POP_EXCEPT, placed after its try statement)
            if late_exit::copy_then_late_return(&self.clause_late_tails[tails_before..], fin_copy) {
                return Err(self.err(late_exit::LATE_TAIL));
            }
            // CPython copies the finally body before every return/break/continue that leaves the
            // try: drop those copies, or refuse, so that it does not run twice
            let mut body = body;
            // (a way out that the normal path's copy and others fall into: after the statement)
            let mut stripped = false;
            if no_normal_path && after_try.is_empty() && end.is_none() {
                if let Some(exit) = finally_exits::normal_path_exit(&mut body, fin_copy) {
                    after_try.push(exit);
                    stripped = true;
                }
            }
            if !stripped && !strip_finally_copies(&mut body, fin_copy) {
                return Err(self.err("an exit from a try body without the finally body's copy"));
            }
            // a finally body that ends by raising: its copies before the body's ways out end the
            // code there (the return / break after them is dead and gone), so no copy may be left
            if matches!(finalbody.last(), Some(Stmt::Raise { .. }))
                && except_exit::ends_with_copy(&body, fin_copy)
            {
                return Err(self.err("a try body left through a finally body that raises"));
            }
            Stmt::Try {
                body: or_pass(body),
                handlers: Vec::new(),
                orelse: Vec::new(),
                finalbody,
            }
        } else {
            // (3.14: where no clause comes out, the code after the body reads the same as the
            // statement's `else:` or as the code after it, but 3.14 borrows the locals an `else:`
            // loads and not those of the code after: the latter, as such code is usually written,
            // unless its first local load borrows)
            // (functions only: a module's or class body's code ends with the `return None` the
            // printer drops only at the top level or in an `else:`)
            let function = self.code.flags & 0x1 != 0;
            // (3.12+: the handlers of the code after the body, laid out before or after the
            // statement's own, say which it is where it has any: `handler_order.rs`)
            // (a module or class body only where the statement is at its top level, where the
            // closing `return None` the code after it ends with goes)
            let top = lp.is_none()
                && self.active.is_empty()
                && self.try_body.is_empty()
                && self.stops.iter().all(Option::is_none);
            let leave = function && !star && !rest.is_empty() && !handlers.is_empty();
            let layout = emitted_before
                .as_deref()
                .filter(|_| !star && !rest.is_empty() && !handlers.is_empty())
                .filter(|_| function || top)
                .and_then(|e| self.rest_after_handler(e, h, cleanup));
            // (in a loop, clauses whose every way on goes back to the header: each that
            // completes is a `continue` once the code after the body follows the statement)
            let continues = layout == Some(true)
                && lp.is_some_and(|ctx| self.clauses_only_continue(h, cleanup, ctx.header));
            let rest_after = match layout {
                Some(after_statement) => {
                    after_statement
                        && (continues
                            || handlers
                                .iter()
                                .all(|h| handler_order::always_leaves(&h.body)))
                }
                None => {
                    self.code.version >= framejit_bytecode::PyVersion::V3_14
                        && leave
                        && handlers
                            .iter()
                            .all(|h| finally_exits::ends_by_leaving(&h.body))
                        && !after.is_some_and(|a| self.starts_borrowing(a))
                }
            };
            let rest = if rest_after {
                if continues {
                    handlers
                        .iter_mut()
                        .for_each(|h| handler_order::end_with_continue(&mut h.body));
                }
                after_try.splice(0..0, rest);
                Vec::new()
            } else {
                rest
            };
            Stmt::Try {
                body: or_pass(body),
                handlers,
                orelse: rest,
                finalbody: Vec::new(),
            }
        };
        let stmt = match stmt {
            Stmt::Try {
                body,
                handlers,
                orelse,
                finalbody,
            } if star => Stmt::TryStar {
                body,
                handlers,
                orelse,
                finalbody,
            },
            s => s,
        };
        let mut out = vec![stmt];
        out.append(&mut after_try);
        Ok((out, end))
    }

    /// The clauses of handler `h` (up to its cleanup block), or the body of a `finally:`.
    #[allow(clippy::type_complexity)]
    fn handler_clauses(
        &mut self,
        h: usize,
        cleanup: usize,
        end: Option<usize>,
        base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Result<
        (
            Vec<crate::ast::ExceptHandler>,
            Option<Vec<Stmt>>,
            Tails,
            Vec<usize>,
        ),
        DecompileError,
    > {
        use crate::ast::ExceptHandler;
        use crate::exprs::{EXC, EXC_MATCH, RERAISE};
        let is_marker =
            |s: &Stmt, m: &str| matches!(s, Stmt::Expr { value: Expr::Name { id, .. } } if id == m);
        let exc = || vec![Val::Expr(Expr::name(EXC))];
        // (a test of this handler's own clauses, covered by its cleanup: not one of a try nested
        // in a finally body)
        if self.is_star_handler(h, cleanup) {
            let (clauses, finalbody, tails) = self.star_clauses(h, cleanup, end, base, lp)?;
            return Ok((clauses, finalbody, tails, Vec::new()));
        }
        if !self.has_except_clauses(h, cleanup) {
            // finally: the handler runs the body then re-raises
            // (the exception stays on the stack under the body's statements, for the RERAISE)
            let mut fin_base = base.to_vec();
            fin_base.extend(exc());
            let mut fin = self.region(h, Some(cleanup), &fin_base, lp)?;
            finally_exits::drop_leaving_exc(&mut fin);
            // (a finally body that ends by raising never gets to the RERAISE, which is dead code)
            let raises = matches!(fin.last(), Some(Stmt::Raise { exc: Some(_), .. }));
            if !raises && !fin.last().is_some_and(|s| is_marker(s, RERAISE)) {
                return Err(self.err("a finally handler that does not re-raise"));
            }
            let reraise = match raises {
                true => Vec::new(),
                false => fin.pop().into_iter().collect::<Vec<_>>(),
            };
            // (the compiler copied the RERAISE into the ends of a final if's arms)
            except_exit::strip_copied_end(&mut fin, &reraise);
            // (and into an arm the code after the `if` is the way past: `finally_tail.rs`)
            if self.code.version >= framejit_bytecode::PyVersion::V3_11 {
                finally_tail::join_reraise_arms(&mut fin, &reraise);
            }
            // (3.11: and into a final loop's `break`s, `finally_break_copy.rs`)
            if self.code.version == framejit_bytecode::PyVersion::V3_11 {
                finally_break_copy::reraise_as_break(&mut fin, &reraise);
            }
            // (and into a final loop's `break`s and its end alike)
            if self.code.version >= framejit_bytecode::PyVersion::V3_12 {
                finally_tail::drop_else_like_after(&mut fin, &reraise);
            }
            if let Some(t) = except_exit::split_pop_except(&mut fin) {
                except_exit::put_back(&mut fin, t);
            }
            return Ok((Vec::new(), Some(or_pass(fin)), Vec::new(), Vec::new()));
        }
        let mut clauses = Vec::new();
        // code after the statement the compiler copied into clauses, after their POP_EXCEPT
        let mut tails = Vec::new();
        // the clauses that end with a leaving statement after their POP_EXCEPT
        let mut exit_copies = Vec::new();
        let mut cur = h;
        loop {
            let first = self
                .instrs(cur)
                .iter()
                .find(|i| i.op.name != "PUSH_EXC_INFO")
                .map(|i| i.op.name);
            if first == Some("RERAISE") {
                // no clause matched: re-raise (the end of the clauses)
                self.emitted[cur] = true;
                break;
            }
            if first == Some("POP_TOP") {
                // bare `except:`, always last
                let placed = self.emitted.clone();
                let mut stmts = self.region_carry(cur, end, base, exc(), lp)?;
                if stmts.first().is_some_and(|s| is_marker(s, EXC)) {
                    stmts.remove(0);
                }
                clause_end_copy::mark_nested(&mut stmts);
                if except_exit::ends_with_exit_after_marker(&stmts) {
                    exit_copies.push(clauses.len());
                }
                if let Some(t) = except_exit::split_pop_except(&mut stmts) {
                    tails.push((clauses.len(), t));
                    self.release_shared(&placed);
                }
                clauses.push(ExceptHandler {
                    type_: None,
                    name: None,
                    body: or_pass(stmts),
                });
                break;
            }
            // `except T [as name]:` — T; CHECK_EXC_MATCH; POP_JUMP_IF_FALSE to the next clause
            let mut start = base.to_vec();
            start.extend(exc());
            // (T may branch itself: `except (A if c else B):`)
            let (stmts, exit, left, last) = self.run_past_values(cur, start)?;
            let (test, next) = match exit {
                Exit::Branch {
                    test,
                    jump_if: false,
                    keep: false,
                    copy: false,
                } if stmts.is_empty() => (test, self.succ(last, EdgeKind::Jump)),
                _ => {
                    return Err(
                        self.err("an except clause of a shape this decompiler does not know")
                    )
                }
            };
            let type_ = match test {
                Expr::Call { func, mut args, .. }
                    if matches!(func.as_ref(), Expr::Name { id, .. } if id == EXC_MATCH)
                        && args.len() == 1 =>
                {
                    args.remove(0)
                }
                _ => return Err(self.err("an except clause without its exception test")),
            };
            let body_start = self
                .succ(last, EdgeKind::Fall)
                .ok_or_else(|| self.err("an except clause without a body"))?;
            let carry = self.above(&left, base)?;
            let placed = self.emitted.clone();
            let mut stmts = self.region_carry(body_start, end, base, carry, lp)?;
            clause_end_copy::mark_nested(&mut stmts);
            if except_exit::ends_with_exit_after_marker(&stmts) {
                exit_copies.push(clauses.len());
            }
            if let Some(t) = except_exit::split_pop_except(&mut stmts) {
                tails.push((clauses.len(), t));
                self.release_shared(&placed);
            }
            // `except T as name:` binds the exception first and unbinds it at the end
            let name = take_clause_binding(&mut stmts).flatten();
            clauses.push(ExceptHandler {
                type_: Some(type_),
                name,
                body: or_pass(stmts),
            });
            match next {
                Some(n) if n < cleanup => cur = n,
                _ => break,
            }
        }
        // the blocks that unbind a named exception on the error path are the compiler's own; the
        // handler of a try nested in a clause is not, and must have come out with its statement
        for x in h..cleanup {
            let first = self.instrs(x).first().map(|i| i.op.name);
            if !self.emitted[x] && first == Some("PUSH_EXC_INFO") {
                return Err(self.err("an exception handler the structured code leaves out"));
            }
            // (not a clause's end that also holds the code after a loop, which comes out there:
            // `break_into_copy`)
            if self.resume[x] > 0 && !self.emitted[x] && self.clause_break_copy(x).is_some() {
                continue;
            }
            // (nor the code after a loop split off after a clause's `break`: the loop's exit,
            // `clause_break_split.rs`)
            if !self.emitted[x] && self.clause_break_exits.contains(&x) {
                continue;
            }
            self.emitted[x] = true;
        }
        Ok((clauses, None, tails, exit_copies))
    }

    /// The loop headed by `header`, entered with `stack`; `guard` is the test and exit of a `while`
    /// compiled as a guard before a bottom-tested loop (refused if the loop does not repeat the test).
    fn loop_stmt(
        &mut self,
        header: usize,
        stack: Vec<Val>,
        guard: Option<(Expr, usize)>,
        enclosing: Option<&LoopCtx>,
    ) -> Result<(Vec<Stmt>, Next), DecompileError> {
        let lp = self
            .loop_at(header)
            .cloned()
            .ok_or_else(|| self.err("no loop here"))?;
        let first = self.instrs(header).first().map(|i| i.op.name);
        if first == Some("FOR_ITER") && guard.is_none() {
            return self.for_stmt(header, stack, enclosing);
        }
        // Where control leaves the loop: a single outside successor of the loop's blocks, or the guard's.
        let mut exits: Vec<usize> = Vec::new();
        for &x in &lp.body {
            for e in &self.cfg.blocks[x].succs {
                if e.kind != EdgeKind::Exception
                    && !lp.body.contains(&e.to)
                    && !exits.contains(&e.to)
                {
                    exits.push(e.to);
                }
            }
        }
        exits.sort_unstable();
        // the code after the loop is at the loop statement's own try nesting: a successor inside an
        // exception handler (an except clause's re-raise) is not where the loop goes on
        let outer: Vec<Option<usize>> = self.cfg.blocks[header]
            .preds
            .iter()
            .filter(|p| !lp.body.contains(p))
            .map(|&p| self.cfg.blocks[p].handler.map(|h| h.0))
            .collect();
        if let Some(&level) = outer.first() {
            // (3.11+: not a `raise` or `return` inside a try body in the loop, which no code
            // after the loop can be: `try_raise_exit.rs`)
            if self.code.version >= framejit_bytecode::PyVersion::V3_11 {
                exits = self.drop_inner_raises(header, &exits, level, &lp.body);
            }
            let mut same = self.exits_at_level(&exits, level);
            // (3.12+: a `break`'s jump out of a loop that ends a try body goes to the code after
            // the try statement, which no handler of the body covers: a jump, not handler code)
            if level.is_some() && !same.is_empty() {
                let breaks: Vec<usize> = exits
                    .iter()
                    .copied()
                    .filter(|&e| !same.contains(&e) && self.break_out_of_try(e))
                    .collect();
                same.extend(breaks);
                same.sort_unstable();
            }
            if !same.is_empty() {
                exits = same;
            } else if let Some(x) = self.exit_past_level(&exits, level, &lp.body) {
                // (every way out inside a try body of the loop: where they lead at the loop's
                // level, the code after it)
                exits = vec![x];
            } else if self.code.version == framejit_bytecode::PyVersion::V3_11
                && self.handler_break_exit(header, &lp.body).is_some()
            {
                // (3.11: every edge that leaves the loop is inside a try body the loop is not
                // in, a `raise` there; an except clause's `break` says where the loop goes on)
                exits.clear();
            }
        }
        exits.retain(|&x| self.legacy_loop_exit(header, x));
        exits = self.exits_at_header_depth(header, &exits);
        if exits.is_empty() {
            // (≤3.10: an except clause that leaves the loop, `except E: break`)
            exits = self.legacy_clause_exits(header, &lp.body);
        }
        // `while T: ... else: ...` compiled as a guard: the test's exit starts the `else:` part,
        // `break` goes past it. A loop tested at its top (≤3.9) has its test in the body, as
        // `if T: ... continue` followed by the `else:` part: `break` leaves after that part,
        // and while_fold makes `while T: ... else:` of it.
        let depth = self.entry_depth[header];
        let else_brk = guard
            .as_ref()
            .and_then(|g| self.else_break_target(header, g.1, depth, enclosing));
        // (not a `return` written in the body: see `return_in_body`)
        // (3.12+: where the test falls through to the way out, that arm is an `if c: break`
        // written in the body, the jump into the body its `if` skipping it: 3.12 / 3.13 test
        // `while c:` at the bottom, and a 3.14 `while c:` tested at its top jumps out; on 3.14
        // only an arm that is the `break`'s jump, or its copy of the code after a try statement
        // around the loop (`try_leaving_exit`), counts: a `return` arm keeps the reading)
        let falls_out = |x: usize| {
            let v = self.code.version;
            v >= framejit_bytecode::PyVersion::V3_12
                && self.succ(header, EdgeKind::Fall) == Some(x)
                && (v < framejit_bytecode::PyVersion::V3_14
                    || self.resolve_jumps(x) != x
                    || self.try_leaving_exit(&lp.body, &exits) == Some(x))
        };
        let top_brk = self
            .header_test_exit(header, &lp.body)
            .filter(|_| guard.is_none())
            .filter(|&x| !falls_out(x))
            .and_then(|x| {
                self.else_break_target(header, x, depth, enclosing)
                    .filter(|&t| self.else_part_before(x, t, &lp.body))
            })
            .filter(|&t| !self.return_in_body(t, &lp.body) && !self.legacy_fall_return(t, &lp.body))
            .filter(|&t| !self.walked_exit_in_body(header, t, &lp.body))
            .filter(|&t| {
                let x = self.header_test_exit(header, &lp.body);
                !x.is_some_and(|x| self.return_inside_top_loop(header, x, t, &lp.body))
            });
        let guard_free = guard.is_none() && top_brk.is_none() && else_brk.is_none();
        let (cond, exit) = match guard {
            Some((t, e)) => (Some(t), Some(e)),
            None if top_brk.is_some() => (None, top_brk),
            None => (
                None,
                // (3.12+: the code after the loop copied after an except clause's end and split
                // off, the loop's only way out but blocks that leave, `clause_break_split.rs`)
                self.clause_break_exit_of(header, &lp.body)
                    .or_else(|| self.legacy_header_exit(header, &exits))
                    .or_else(|| self.loop_exit(header, &lp.body, &exits))
                    .or_else(|| {
                        // (3.11: no edge leaves the loop; an except clause's `break` does. 3.12
                        // and 3.13 place the handler after the loop, where the try's reading
                        // finds it; 3.14 lays the code after the loop out after the handler)
                        let v = self.code.version;
                        (exits.is_empty()
                            && (v == framejit_bytecode::PyVersion::V3_11
                                || v >= framejit_bytecode::PyVersion::V3_14))
                            .then(|| self.handler_break_exit(header, &lp.body))
                            .flatten()
                    })
                    // (no edge leaves at the loop's depth; `break` out of with bodies does)
                    .or_else(|| {
                        exits
                            .is_empty()
                            .then(|| self.with_break_exit(header, &lp.body))
                            .flatten()
                    })
                    // (3.10: the same, through the with bodies' blocks, `legacy_with_break.rs`)
                    .or_else(|| {
                        exits
                            .is_empty()
                            .then(|| self.legacy_with_break_exit(header, &lp.body))
                            .flatten()
                    })
                    // (≤3.9: every way out a `break` in a try body, `legacy_while_exit.rs`)
                    .or_else(|| self.legacy_layout_exit(header, &lp.body)),
            ),
        };
        // (a `while c:` loop repeats its test before going round: a jump back to its body's
        // start that is not that test is the jump back of a loop inside it, sharing the block)
        if cond.is_some() && self.untested_jump_back(header, &lp.body) {
            return Err(self.err(
                "a jump back to a while loop's body that skips its test (a loop inside it shares its first block)",
            ));
        }
        // (a `break`'s own jump, when an except clause's `break` goes where it jumps)
        let exit = match (guard_free, exit) {
            (true, Some(x)) => Some(self.clause_break_exit(header, &lp.body, x).unwrap_or(x)),
            _ => exit,
        };
        let ctx = LoopCtx {
            header,
            exit: else_brk.or(exit),
            else_at: else_brk.and(exit),
            cond: cond.clone(),
            guard: self.guard_block.take().filter(|_| cond.is_some()),
        };
        self.bottom_test_seen = false;
        let mut stmts = self.loop_body(header, &stack, &ctx)?;
        if cond.is_some() && !self.bottom_test_seen {
            return Err(self.err("the loop does not repeat the guard's test"));
        }
        strip_tail_continue(&mut stmts);
        nop_header::restore_written_continues(&mut stmts);
        if self.legacy_dead_latch(&ctx) {
            legacy_latch::restore_last_continue(&mut stmts);
        }
        let guarded = cond.is_some();
        let test = cond.unwrap_or_else(|| Expr::constant(Constant::Bool(true)));
        let orelse = match (exit, else_brk) {
            (Some(x), Some(t)) => self.loop_else(x, t, &stack, Vec::new(), enclosing)?,
            _ => Vec::new(),
        };
        let mut stmt = Stmt::While {
            test,
            body: or_pass(stmts),
            orelse,
        };
        // (≤3.9 and 3.14+ test a `while` at its top; 3.10-3.13 rotate it into guard + bottom test)
        let top_tested = self.code.version <= framejit_bytecode::PyVersion::V3_9
            || self.code.version >= framejit_bytecode::PyVersion::V3_14;
        if !guarded && else_brk.is_none() && top_tested {
            while_fold::fold(&mut stmt);
        }
        // (not a loop that starts with the NOP of its `while True:` line; 3.10 too tests a
        // `while c:` whose body never reaches its end at its top: heapq `_siftdown`)
        if !guarded
            && else_brk.is_none()
            && (self.code.version >= framejit_bytecode::PyVersion::V3_12
                || self.code.version == framejit_bytecode::PyVersion::V3_10)
            && self.instrs(header).first().map(|i| i.op.name) != Some("NOP")
        {
            while_break::fold(&mut stmt);
        }
        Ok((
            vec![stmt],
            Next {
                block: else_brk.or(exit),
                carry: stack.clone(),
            },
        ))
    }

    /// The body of a loop from its header until control returns to the header.
    fn loop_body(
        &mut self,
        header: usize,
        base: &[Val],
        ctx: &LoopCtx,
    ) -> Result<Vec<Stmt>, DecompileError> {
        // The header itself is part of the body: structure it with the loop context, stopping when
        // control comes back to it (the first time through, the header is not a `continue`).
        let saved = self.entering_header.replace(header);
        self.loop_stops.push(self.stops.len());
        let out = self.region(header, None, base, Some(ctx));
        self.loop_stops.pop();
        self.entering_header = saved;
        out
    }

    /// `for TARGET in ITER:` headed by FOR_ITER; the iterator is on top of `stack` (from GET_ITER).
    fn for_stmt(
        &mut self,
        header: usize,
        stack: Vec<Val>,
        outer: Option<&LoopCtx>,
    ) -> Result<(Vec<Stmt>, Next), DecompileError> {
        let iter = match stack.last() {
            Some(Val::Iter(e)) | Some(Val::Expr(e)) => e.clone(),
            _ => return Err(self.err("FOR_ITER without an iterator on the stack")),
        };
        let for_iter = *self
            .instrs(header)
            .first()
            .ok_or_else(|| self.err("empty loop header"))?;
        let exhausted = self.succ(header, EdgeKind::Jump);
        let first = self
            .succ(header, EdgeKind::Fall)
            .ok_or_else(|| self.err("FOR_ITER without a body"))?;
        // `break` jumps past the pops that end the loop (3.12+ END_FOR, 3.13 POP_TOP, 3.14 POP_ITER)
        let brk = exhausted.map(|e| self.after_pops(e).unwrap_or(e));
        // `for ... else:`: `break` goes past the `else:` part (with the iterator popped)
        let depth = self.entry_depth[header].and_then(|d| d.checked_sub(1));
        let else_brk = brk.and_then(|x| self.else_break_target(header, x, depth, outer));
        // (3.12+: the code after a `for ... else:` only in the copy a `break` runs)
        let copied_after = match else_brk {
            None => exhausted.and_then(|x| self.break_into_copy(header, x)),
            Some(_) => None,
        };
        let else_brk = else_brk.or(copied_after.map(|c| c.0));
        // (the code after the loop starts past the copy's pop of the iterator; known while the
        // body is read, where an except clause's end in the same block leaves it for later)
        if let Some((t, skip)) = copied_after {
            self.resume[t] = skip;
        }
        let ctx = LoopCtx {
            header,
            exit: else_brk.or(brk),
            else_at: else_brk.and(exhausted),
            cond: None,
            guard: None,
        };
        self.visits[header] += 1;
        // The body's first block starts with the item pushed over the iterator.
        self.loop_stops.push(self.stops.len());
        let with_item =
            self.region_with_carry(first, &stack, vec![Val::Expr(Expr::name(ITEM))], &ctx);
        self.loop_stops.pop();
        // (a body that does not read leaves no mark for a later reading of the block)
        if let (Err(_), Some((t, _))) = (&with_item, copied_after) {
            self.resume[t] = 0;
        }
        let mut with_item = with_item?;
        let target = match with_item.first() {
            Some(Stmt::Assign {
                targets,
                value: Expr::Name { id, .. },
            }) if id == ITEM && targets.len() == 1 => targets[0].clone(),
            _ => return Err(self.err("the loop target is not a plain store")),
        };
        with_item.remove(0);
        strip_tail_continue(&mut with_item);
        nop_header::restore_written_continues(&mut with_item);
        if self.legacy_dead_latch(&ctx) {
            legacy_latch::restore_last_continue(&mut with_item);
        }
        // On exhaustion the stack holds what FOR_ITER's jump leaves: what was under the iterator and,
        // 3.12+, values that END_FOR and its kin pop in the exit block.
        let mut carry: Vec<Val> = stack[..stack.len().saturating_sub(1)].to_vec();
        let effect = for_iter.op.stack_effect(for_iter.raw_arg(), Some(true));
        let mut after_stack_len = stack.len() as i64 + i64::from(effect);
        while after_stack_len > stack.len() as i64 - 1 {
            carry.push(Val::Null);
            after_stack_len -= 1;
        }
        // the iterator (stack top) leaves with the loop; what the exit block pops comes as carry
        let below = &stack[..stack.len().saturating_sub(1)];
        let (orelse, next) = match (exhausted, else_brk) {
            (Some(x), Some(t)) => {
                let pops = carry[below.len()..].to_vec();
                let orelse = self.loop_else(x, t, below, pops, outer)?;
                let next = Next {
                    block: Some(t),
                    carry: below.to_vec(),
                };
                (orelse, next)
            }
            _ => {
                let next = Next {
                    block: exhausted,
                    carry,
                };
                (Vec::new(), next)
            }
        };
        let stmt = Stmt::For {
            target,
            iter,
            body: or_pass(with_item),
            orelse,
        };
        Ok((vec![stmt], next))
    }

    /// A region whose first block starts with `carry` pushed over `base`.
    fn region_with_carry(
        &mut self,
        start: usize,
        base: &[Val],
        carry: Vec<Val>,
        ctx: &LoopCtx,
    ) -> Result<Vec<Stmt>, DecompileError> {
        self.region_carry(start, None, base, carry, Some(ctx))
    }

    /// Is the stop [`Self::stop_reached`] finds that of a region around the innermost loop being
    /// structured (no region inside the loop's body has set one)?
    fn stop_around_loop(&self) -> bool {
        self.loop_stops.last().is_some_and(|&n| {
            self.stops
                .get(n..)
                .is_some_and(|s| s.iter().all(Option::is_none))
        })
    }

    /// The block after `exit`'s leading pops when the block is nothing but pops.
    pub(super) fn after_pops(&self, exit: usize) -> Option<usize> {
        let names: Vec<&str> = self.instrs(exit).iter().map(|i| i.op.name).collect();
        let all_pops = !names.is_empty()
            && names
                .iter()
                .all(|n| matches!(*n, "END_FOR" | "POP_TOP" | "POP_ITER"));
        if all_pops {
            self.succ(exit, EdgeKind::Fall)
        } else {
            None
        }
    }
}

/// Blocks reachable from the entry block through any edge (exception edges included).
fn reachable_blocks(cfg: &Cfg) -> Vec<bool> {
    let mut seen = vec![false; cfg.blocks.len()];
    let mut todo = vec![0usize];
    while let Some(b) = todo.pop() {
        if b >= seen.len() || std::mem::replace(&mut seen[b], true) {
            continue;
        }
        todo.extend(cfg.blocks[b].succs.iter().map(|e| e.to));
    }
    seen
}

/// Would dropping these stack values lose a computation (a call, an operation, a function being
/// made)? Names, constants and the markers of enclosing statements cost nothing to drop.
fn loses_work(values: &[Val]) -> bool {
    values.iter().any(|v| match v {
        Val::Expr(e) => {
            !matches!(e, Expr::Name { .. } | Expr::Constant { .. })
                && crate::exprs::cell_name(e).is_none()
        }
        Val::Function(_) | Val::Class(_) | Val::Module { .. } | Val::Unpacked { .. } => true,
        _ => false,
    })
}
