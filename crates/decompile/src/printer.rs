//! Writes an [`crate::ast`] tree as Python source.
//!
//! The output is laid out as a person would write it (4-space indents, PEP 8 spacing, blank lines
//! around definitions) with as few parentheses as the grammar allows, and it parses back to the
//! same tree on the target version. Where the target's grammar has no spelling for a node (an
//! f-string whose expression needs a backslash before 3.12), the printer writes an equivalent
//! expression instead (`'...' + format(x)`). Printing never panics, whatever the tree.
//!
//! Entry points: [`print_module`], [`print_stmt`], [`print_expr`], [`print_pattern`].

use crate::ast::*;
use framejit_bytecode::PyVersion;

/// Prints a module (or any block) at indent level 0, one statement per line, ending in a newline
/// (an empty block gives the empty string).
pub fn print_module(body: &[Stmt], version: PyVersion) -> String {
    let mut p = Printer::new(version);
    // (room for a typical function's source at once, not grown from nothing by doubling)
    p.out.reserve(1024);
    p.block_top(body);
    p.out
}

/// A decompiled module: as `print_module`, with a `not` standing on an `in` / `is` comparison
/// written into its operator where the target compiles both alike (through 3.13).
pub fn print_decompiled(body: &[Stmt], version: PyVersion) -> String {
    let mut p = Printer::new(version);
    p.fold_not = version.info().folds_not_in_tests;
    p.out.reserve(1024);
    p.block_top(body);
    p.out
}

/// Prints one statement (and its nested blocks) at indent level 0, ending in a newline.
pub fn print_stmt(stmt: &Stmt, version: PyVersion) -> String {
    let mut p = Printer::new(version);
    p.stmt(stmt);
    p.out
}

/// Prints an expression as it would stand on the right of `x = ...` (tuples unparenthesized,
/// `yield` bare).
pub fn print_expr(expr: &Expr, version: PyVersion) -> String {
    let mut p = Printer::new(version);
    p.expr(expr, Prec::Yield);
    p.out
}

/// Prints a `match` pattern as it would stand after `case`.
pub fn print_pattern(pattern: &Pattern, version: PyVersion) -> String {
    let mut p = Printer::new(version);
    p.pattern(pattern, PPrec::As);
    p.out
}

/// Binding strength, weakest first: an expression printed where at least `min` is needed gets
/// parentheses when its own precedence is lower.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    Named,
    Yield,
    Tuple,
    Test,
    Or,
    And,
    Not,
    Cmp,
    BOr,
    BXor,
    BAnd,
    Shift,
    Arith,
    Term,
    Factor,
    Power,
    Await,
    Atom,
}

impl Prec {
    fn next(self) -> Prec {
        use Prec::*;
        match self {
            Named => Yield,
            Yield => Tuple,
            Tuple => Test,
            Test => Or,
            Or => And,
            And => Not,
            Not => Cmp,
            Cmp => BOr,
            BOr => BXor,
            BXor => BAnd,
            BAnd => Shift,
            Shift => Arith,
            Arith => Term,
            Term => Factor,
            Factor => Power,
            Power => Await,
            Await | Atom => Atom,
        }
    }
}

/// Pattern binding strength: `p as n` < `a | b` < everything else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum PPrec {
    As,
    Or,
    Atom,
}

/// The quotes a string literal can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quote {
    Single,
    Double,
    TripleSingle,
    TripleDouble,
}

impl Quote {
    fn ch(self) -> char {
        match self {
            Quote::Single | Quote::TripleSingle => '\'',
            Quote::Double | Quote::TripleDouble => '"',
        }
    }

    fn text(self) -> &'static str {
        match self {
            Quote::Single => "'",
            Quote::Double => "\"",
            Quote::TripleSingle => "'''",
            Quote::TripleDouble => "\"\"\"",
        }
    }

    fn triple(self) -> bool {
        matches!(self, Quote::TripleSingle | Quote::TripleDouble)
    }
}

const ALL_QUOTES: [Quote; 4] = [
    Quote::Single,
    Quote::Double,
    Quote::TripleSingle,
    Quote::TripleDouble,
];

/// Printing inside the expression part of a pre-3.12 f-string: no backslashes, and nothing that
/// would end an enclosing f-string.
#[derive(Clone, Debug, Default)]
struct Restricted {
    /// The quotes of the enclosing f-strings.
    banned: Vec<Quote>,
    failed: bool,
}

struct Printer {
    out: String,
    version: PyVersion,
    indent: usize,
    restricted: Option<Restricted>,
    /// How many format specs enclose the f-string part being printed (pre-3.12 allow a field
    /// only two deep).
    spec_depth: usize,
    /// How many f-string replacement fields enclose what is printed (no line breaks there).
    fields: usize,
    /// Decompiled code through 3.13: `not a in b` written `a not in b` (`print_decompiled`).
    fold_not: bool,
    /// The lambdas and comprehensions printed on the current line (through 3.10 only: see
    /// `code_on_own_line`); `None` where not tracked (printing a `code_key`).
    line_codes: Option<Vec<(String, i32)>>,
}

/// What a lambda's or comprehension's code object is made of, as text: the expression without
/// what its caller evaluates (a lambda's defaults, a comprehension's first iterable).
fn code_key(e: &Expr, version: PyVersion) -> String {
    let mut e = e.clone();
    match &mut e {
        Expr::Lambda { args, .. } => {
            for d in args
                .defaults
                .iter_mut()
                .chain(args.kw_defaults.iter_mut().flatten())
            {
                *d = Expr::constant(Constant::None);
            }
        }
        Expr::ListComp { generators, .. }
        | Expr::SetComp { generators, .. }
        | Expr::DictComp { generators, .. }
        | Expr::GeneratorExp { generators, .. } => {
            if let Some(g) = generators.first_mut() {
                g.iter = Expr::constant(Constant::None);
            }
        }
        _ => {}
    }
    let mut p = Printer::new(version);
    p.line_codes = None;
    p.expr(&e, Prec::Yield);
    p.out
}

/// `not a in b` as `a not in b` (`is` likewise): the spelling the compiler reads the same through
/// 3.13 (see `structure::cond_sense`).
fn fold_not(e: &Expr) -> Option<Expr> {
    let Expr::UnaryOp {
        op: UnaryOp::Not,
        operand,
    } = e
    else {
        return None;
    };
    let Expr::Compare {
        left,
        ops,
        comparators,
    } = &**operand
    else {
        return None;
    };
    let op = match ops.as_slice() {
        [CmpOp::Is] => CmpOp::IsNot,
        [CmpOp::IsNot] => CmpOp::Is,
        [CmpOp::In] => CmpOp::NotIn,
        [CmpOp::NotIn] => CmpOp::In,
        _ => return None,
    };
    Some(Expr::Compare {
        left: left.clone(),
        ops: vec![op],
        comparators: comparators.clone(),
    })
}

fn binop_prec(op: Operator) -> Prec {
    match op {
        Operator::Add | Operator::Sub => Prec::Arith,
        Operator::Mult | Operator::MatMult | Operator::Div | Operator::Mod | Operator::FloorDiv => {
            Prec::Term
        }
        Operator::Pow => Prec::Power,
        Operator::LShift | Operator::RShift => Prec::Shift,
        Operator::BitOr => Prec::BOr,
        Operator::BitXor => Prec::BXor,
        Operator::BitAnd => Prec::BAnd,
    }
}

fn binop_text(op: Operator) -> &'static str {
    match op {
        Operator::Add => "+",
        Operator::Sub => "-",
        Operator::Mult => "*",
        Operator::MatMult => "@",
        Operator::Div => "/",
        Operator::Mod => "%",
        Operator::Pow => "**",
        Operator::LShift => "<<",
        Operator::RShift => ">>",
        Operator::BitOr => "|",
        Operator::BitXor => "^",
        Operator::BitAnd => "&",
        Operator::FloorDiv => "//",
    }
}

fn cmp_text(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "==",
        CmpOp::NotEq => "!=",
        CmpOp::Lt => "<",
        CmpOp::LtE => "<=",
        CmpOp::Gt => ">",
        CmpOp::GtE => ">=",
        CmpOp::Is => "is",
        CmpOp::IsNot => "is not",
        CmpOp::In => "in",
        CmpOp::NotIn => "not in",
    }
}

fn conversion_text(c: Conversion) -> &'static str {
    match c {
        Conversion::None => "",
        Conversion::Str => "!s",
        Conversion::Repr => "!r",
        Conversion::Ascii => "!a",
    }
}

/// Python's `repr` of a float, spelled so that it parses back to the same bits
/// (`None` for NaN, which has no literal).
fn float_literal(f: f64) -> Option<String> {
    if f.is_nan() {
        return None;
    }
    if f.is_infinite() {
        return Some(if f > 0.0 { "1e309" } else { "-1e309" }.to_string());
    }
    // Rust's `{:?}` is the shortest string that round-trips; it always has a `.` or an `e`.
    let s = format!("{f:?}");
    if s.contains(['.', 'e', 'E']) {
        Some(s)
    } else {
        Some(format!("{s}.0"))
    }
}

/// The digits of a float as an imaginary literal's mantissa (`1.0` -> `1`).
fn imag_literal(f: f64) -> Option<String> {
    let s = float_literal(f)?;
    Some(match s.strip_suffix(".0") {
        Some(t) if !t.contains('e') => t.to_string(),
        _ => s,
    })
}

/// Decimal digits (no sign) to hexadecimal digits, for ints too long for a decimal literal
/// (3.11+ refuse more than 4300 digits).
fn decimal_to_hex(digits: &str) -> Option<String> {
    let mut num: Vec<u32> = Vec::with_capacity(digits.len());
    for c in digits.chars() {
        num.push(c.to_digit(10)?);
    }
    let mut hex = Vec::new();
    while !(num.is_empty() || num.len() == 1 && num[0] == 0) {
        let mut rem = 0u32;
        let mut next = Vec::with_capacity(num.len());
        for &d in &num {
            let cur = rem * 10 + d;
            let q = cur / 16;
            rem = cur % 16;
            if !(next.is_empty() && q == 0) {
                next.push(q);
            }
        }
        hex.push(char::from_digit(rem, 16)?);
        num = next;
    }
    if hex.is_empty() {
        hex.push('0');
    }
    hex.reverse();
    Some(hex.into_iter().collect())
}

fn is_str_const(e: &Expr) -> Option<&StrValue> {
    match e {
        Expr::Constant {
            value: Constant::Str(s),
            ..
        } => Some(s),
        _ => None,
    }
}

fn is_def(s: &Stmt) -> bool {
    matches!(
        s,
        Stmt::FunctionDef(_) | Stmt::AsyncFunctionDef(_) | Stmt::ClassDef(_)
    )
}

impl Printer {
    fn new(version: PyVersion) -> Printer {
        Printer {
            out: String::new(),
            version,
            indent: 0,
            restricted: None,
            spec_depth: 0,
            fields: 0,
            fold_not: false,
            line_codes: (version <= PyVersion::V3_10).then(Vec::new),
        }
    }

    fn w(&mut self, s: &str) {
        self.out.push_str(s);
    }

    fn fail(&mut self) {
        if let Some(r) = &mut self.restricted {
            r.failed = true;
        }
    }

    fn pep701(&self) -> bool {
        self.version >= PyVersion::V3_12
    }

    // ---------------------------------------------------------------- statements

    fn line_start(&mut self) {
        if let Some(codes) = &mut self.line_codes {
            codes.clear();
        }
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
    }

    fn block_top(&mut self, body: &[Stmt]) {
        self.block_lines(body, 2);
    }

    /// The statements of a block, with `blank` empty lines around definitions.
    fn block_lines(&mut self, body: &[Stmt], blank: usize) {
        for (i, s) in body.iter().enumerate() {
            if i > 0 && (is_def(s) || is_def(&body[i - 1])) {
                for _ in 0..blank {
                    self.out.push('\n');
                }
            }
            match s {
                Stmt::Expr { value } if i == 0 && is_str_const(value).is_some() => {
                    self.docstring(value)
                }
                _ => self.stmt(s),
            }
        }
    }

    /// A string statement in triple quotes (a docstring, or any string holding a newline).
    fn docstring(&mut self, value: &Expr) {
        if let Expr::Constant {
            value: Constant::Str(s),
            kind,
        } = value
        {
            self.line_start();
            if kind.as_deref() == Some("u") {
                self.w("u");
            }
            self.str_body(&s.0, Quote::TripleDouble);
            self.w("\n");
        }
    }

    /// An indented block after a `:`; an empty block prints `pass`.
    fn suite(&mut self, body: &[Stmt]) {
        self.indent += 1;
        if body.is_empty() {
            self.line_start();
            self.w("pass\n");
        } else {
            self.block_lines(body, 1);
        }
        self.indent -= 1;
    }

    fn decorators(&mut self, decs: &[Expr]) {
        for d in decs {
            self.line_start();
            self.w("@");
            self.expr(d, Prec::Named);
            self.w("\n");
        }
    }

    fn type_params(&mut self, tps: &[TypeParam]) {
        if tps.is_empty() {
            return;
        }
        self.w("[");
        for (i, tp) in tps.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            let default = match tp {
                TypeParam::TypeVar {
                    name,
                    bound,
                    default_value,
                } => {
                    self.w(name);
                    if let Some(b) = bound {
                        self.w(": ");
                        self.expr(b, Prec::Test);
                    }
                    default_value
                }
                TypeParam::ParamSpec {
                    name,
                    default_value,
                } => {
                    self.w("**");
                    self.w(name);
                    default_value
                }
                TypeParam::TypeVarTuple {
                    name,
                    default_value,
                } => {
                    self.w("*");
                    self.w(name);
                    default_value
                }
            };
            if let Some(d) = default {
                self.w(" = ");
                self.expr(d, Prec::Test);
            }
        }
        self.w("]");
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::FunctionDef(f) => self.funcdef(f, false),
            Stmt::AsyncFunctionDef(f) => self.funcdef(f, true),
            Stmt::ClassDef(c) => {
                self.decorators(&c.decorator_list);
                self.line_start();
                self.w("class ");
                self.w(&c.name);
                self.type_params(&c.type_params);
                if !c.bases.is_empty() || !c.keywords.is_empty() {
                    self.w("(");
                    self.call_args(&c.bases, &c.keywords);
                    self.w(")");
                }
                self.w(":\n");
                self.suite(&c.body);
            }
            Stmt::Return { value } => {
                self.line_start();
                self.w("return");
                if let Some(v) = value {
                    self.w(" ");
                    self.expr(v, Prec::Tuple);
                }
                self.w("\n");
            }
            Stmt::Delete { targets } => {
                self.line_start();
                self.w("del ");
                self.comma_list(targets, Prec::Test);
                self.w("\n");
            }
            Stmt::Assign { targets, value } => {
                self.line_start();
                for t in targets {
                    self.expr(t, Prec::Tuple);
                    self.w(" = ");
                }
                self.expr_stmt_value(value);
                self.w("\n");
            }
            Stmt::TypeAlias {
                name,
                type_params,
                value,
            } => {
                self.line_start();
                self.w("type ");
                self.expr(name, Prec::Atom);
                self.type_params(type_params);
                self.w(" = ");
                self.expr(value, Prec::Test);
                self.w("\n");
            }
            Stmt::AugAssign { target, op, value } => {
                self.line_start();
                self.expr(target, Prec::Atom);
                self.w(" ");
                self.w(binop_text(*op));
                self.w("= ");
                self.expr_stmt_value(value);
                self.w("\n");
            }
            Stmt::AnnAssign {
                target,
                annotation,
                value,
                simple,
            } => {
                self.line_start();
                if !simple && matches!(target, Expr::Name { .. }) {
                    self.w("(");
                    self.expr(target, Prec::Atom);
                    self.w(")");
                } else {
                    self.expr(target, Prec::Atom);
                }
                self.w(": ");
                self.expr(annotation, Prec::Test);
                if let Some(v) = value {
                    self.w(" = ");
                    self.expr_stmt_value(v);
                }
                self.w("\n");
            }
            Stmt::For {
                target,
                iter,
                body,
                orelse,
            } => self.for_stmt("for ", target, iter, body, orelse),
            Stmt::AsyncFor {
                target,
                iter,
                body,
                orelse,
            } => self.for_stmt("async for ", target, iter, body, orelse),
            Stmt::While { test, body, orelse } => {
                self.line_start();
                self.w("while ");
                self.expr(test, Prec::Named);
                self.w(":\n");
                self.suite(body);
                self.else_suite(orelse);
            }
            Stmt::If { test, body, orelse } => {
                self.line_start();
                self.w("if ");
                self.expr(test, Prec::Named);
                self.w(":\n");
                self.suite(body);
                let mut orelse = orelse;
                while let [Stmt::If {
                    test,
                    body,
                    orelse: next,
                }] = orelse.as_slice()
                {
                    self.line_start();
                    self.w("elif ");
                    self.expr(test, Prec::Named);
                    self.w(":\n");
                    self.suite(body);
                    orelse = next;
                }
                self.else_suite(orelse);
            }
            Stmt::With { items, body } => self.with_stmt("with ", items, body),
            Stmt::AsyncWith { items, body } => self.with_stmt("async with ", items, body),
            Stmt::Match { subject, cases } => {
                self.line_start();
                self.w("match ");
                self.expr(subject, Prec::Tuple);
                self.w(":\n");
                self.indent += 1;
                for c in cases {
                    self.line_start();
                    self.w("case ");
                    self.pattern(&c.pattern, PPrec::As);
                    if let Some(g) = &c.guard {
                        self.w(" if ");
                        self.expr(g, Prec::Named);
                    }
                    self.w(":\n");
                    self.suite(&c.body);
                }
                if cases.is_empty() {
                    // `match` needs a case; this one never matches anything a subject can be.
                    self.line_start();
                    self.w("case _ if False:\n");
                    self.suite(&[]);
                }
                self.indent -= 1;
            }
            Stmt::Raise { exc, cause } => {
                self.line_start();
                self.w("raise");
                if let Some(e) = exc {
                    self.w(" ");
                    self.expr(e, Prec::Test);
                    if let Some(c) = cause {
                        self.w(" from ");
                        self.expr(c, Prec::Test);
                    }
                }
                self.w("\n");
            }
            Stmt::Try {
                body,
                handlers,
                orelse,
                finalbody,
            } => self.try_stmt(body, handlers, orelse, finalbody, false),
            Stmt::TryStar {
                body,
                handlers,
                orelse,
                finalbody,
            } => self.try_stmt(body, handlers, orelse, finalbody, true),
            Stmt::Assert { test, msg } => {
                self.line_start();
                self.w("assert ");
                self.expr(test, Prec::Test);
                if let Some(m) = msg {
                    self.w(", ");
                    self.expr(m, Prec::Test);
                }
                self.w("\n");
            }
            Stmt::Import { names } => {
                self.line_start();
                self.w("import ");
                self.aliases(names);
                self.w("\n");
            }
            Stmt::ImportFrom {
                module,
                names,
                level,
            } => {
                self.line_start();
                self.w("from ");
                for _ in 0..*level {
                    self.w(".");
                }
                if let Some(m) = module {
                    self.w(m);
                }
                self.w(" import ");
                self.aliases(names);
                self.w("\n");
            }
            Stmt::Global { names } => self.names_stmt("global ", names),
            Stmt::Nonlocal { names } => self.names_stmt("nonlocal ", names),
            Stmt::Expr { value } => match is_str_const(value) {
                Some(s) if s.0.contains(&0x0A) => self.docstring(value),
                _ => {
                    self.line_start();
                    self.expr_stmt_value(value);
                    self.w("\n");
                }
            },
            Stmt::Pass => {
                self.line_start();
                self.w("pass\n");
            }
            Stmt::Break => {
                self.line_start();
                self.w("break\n");
            }
            Stmt::Continue => {
                self.line_start();
                self.w("continue\n");
            }
        }
    }

    /// The right-hand side of an assignment or an expression statement: a bare tuple or `yield`
    /// is fine there.
    fn expr_stmt_value(&mut self, e: &Expr) {
        self.expr(e, Prec::Yield);
    }

    fn names_stmt(&mut self, kw: &str, names: &[Identifier]) {
        self.line_start();
        self.w(kw);
        self.w(&names.join(", "));
        self.w("\n");
    }

    fn aliases(&mut self, names: &[Alias]) {
        for (i, a) in names.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            self.w(&a.name);
            if let Some(n) = &a.asname {
                self.w(" as ");
                self.w(n);
            }
        }
    }

    fn else_suite(&mut self, orelse: &[Stmt]) {
        if !orelse.is_empty() {
            self.line_start();
            self.w("else:\n");
            self.suite(orelse);
        }
    }

    fn funcdef(&mut self, f: &FunctionDef, is_async: bool) {
        self.decorators(&f.decorator_list);
        self.line_start();
        self.w(if is_async { "async def " } else { "def " });
        self.w(&f.name);
        self.type_params(&f.type_params);
        self.w("(");
        self.arguments(&f.args, true);
        self.w(")");
        if let Some(r) = &f.returns {
            self.w(" -> ");
            self.expr(r, Prec::Test);
        }
        self.w(":\n");
        self.suite(&f.body);
    }

    fn for_stmt(&mut self, kw: &str, target: &Expr, iter: &Expr, body: &[Stmt], orelse: &[Stmt]) {
        self.line_start();
        self.w(kw);
        self.expr(target, Prec::Tuple);
        self.w(" in ");
        // `for x in *a, b:` only parses from 3.9.
        let starred = matches!(iter, Expr::Tuple { elts, .. }
            if elts.iter().any(|e| matches!(e, Expr::Starred { .. })));
        self.expr(iter, if starred { Prec::Test } else { Prec::Tuple });
        self.w(":\n");
        self.suite(body);
        self.else_suite(orelse);
    }

    fn with_stmt(&mut self, kw: &str, items: &[WithItem], body: &[Stmt]) {
        self.line_start();
        self.w(kw);
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            // 3.9+ read `with (a, b):` as two items: a lone tuple item takes double parentheses.
            let lone_tuple = items.len() == 1
                && item.optional_vars.is_none()
                && matches!(&item.context_expr, Expr::Tuple { elts, .. } if !elts.is_empty());
            if lone_tuple {
                self.w("(");
            }
            self.expr(&item.context_expr, Prec::Test);
            if lone_tuple {
                self.w(")");
            }
            if let Some(v) = &item.optional_vars {
                self.w(" as ");
                self.expr(v, Prec::Test);
            }
        }
        self.w(":\n");
        self.suite(body);
    }

    fn try_stmt(
        &mut self,
        body: &[Stmt],
        handlers: &[ExceptHandler],
        orelse: &[Stmt],
        finalbody: &[Stmt],
        star: bool,
    ) {
        self.line_start();
        self.w("try:\n");
        self.suite(body);
        for h in handlers {
            self.line_start();
            self.w(if star { "except*" } else { "except" });
            if let Some(t) = &h.type_ {
                self.w(" ");
                self.expr(t, Prec::Test);
                if let Some(n) = &h.name {
                    self.w(" as ");
                    self.w(n);
                }
            }
            self.w(":\n");
            self.suite(&h.body);
        }
        self.else_suite(orelse);
        if !finalbody.is_empty() || handlers.is_empty() {
            self.line_start();
            self.w("finally:\n");
            self.suite(finalbody);
        }
    }

    // ---------------------------------------------------------------- arguments

    fn arguments(&mut self, a: &Arguments, annotations: bool) {
        let mut first = true;
        let mut sep = |p: &mut Printer| {
            if !first {
                p.w(", ");
            }
            first = false;
        };
        let npos = a.posonlyargs.len() + a.args.len();
        let first_default = npos.saturating_sub(a.defaults.len());
        let skip = a.defaults.len().saturating_sub(npos);
        for (i, arg) in a.posonlyargs.iter().chain(a.args.iter()).enumerate() {
            sep(self);
            let default = if i >= first_default {
                a.defaults.get(skip + i - first_default)
            } else {
                None
            };
            self.arg(arg, annotations, default);
            if i + 1 == a.posonlyargs.len() {
                self.w(", /");
            }
        }
        if let Some(v) = &a.vararg {
            sep(self);
            self.w("*");
            self.arg(v, annotations, None);
        } else if !a.kwonlyargs.is_empty() {
            sep(self);
            self.w("*");
        }
        for (i, arg) in a.kwonlyargs.iter().enumerate() {
            sep(self);
            let default = a.kw_defaults.get(i).and_then(|d| d.as_ref());
            self.arg(arg, annotations, default);
        }
        if let Some(k) = &a.kwarg {
            sep(self);
            self.w("**");
            self.arg(k, annotations, None);
        }
    }

    fn arg(&mut self, arg: &Arg, annotations: bool, default: Option<&Expr>) {
        self.w(&arg.arg);
        let annotated = match (&arg.annotation, annotations) {
            (Some(ann), true) => {
                self.w(": ");
                // `*args: *Ts` (3.11+) is a starred annotation.
                self.expr(ann, Prec::Test);
                true
            }
            _ => false,
        };
        if let Some(d) = default {
            self.w(if annotated { " = " } else { "=" });
            self.expr(d, Prec::Test);
        }
    }

    fn call_args(&mut self, args: &[Expr], keywords: &[Keyword]) {
        let mut first = true;
        for a in args {
            if !first {
                self.w(", ");
            }
            first = false;
            self.expr(a, Prec::Test);
        }
        for k in keywords {
            if !first {
                self.w(", ");
            }
            first = false;
            match &k.arg {
                Some(name) => {
                    self.w(name);
                    self.w("=");
                    self.expr(&k.value, Prec::Test);
                }
                None => {
                    self.w("**");
                    self.expr(&k.value, Prec::BOr);
                }
            }
        }
    }

    fn comma_list(&mut self, items: &[Expr], min: Prec) {
        for (i, e) in items.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            self.expr(e, min);
        }
    }

    // ---------------------------------------------------------------- expressions

    fn prec_of(&self, e: &Expr) -> Prec {
        match e {
            Expr::BoolOp { op: BoolOp::Or, .. } => Prec::Or,
            Expr::BoolOp {
                op: BoolOp::And, ..
            } => Prec::And,
            Expr::NamedExpr { .. } => Prec::Named,
            Expr::BinOp { op, .. } => binop_prec(*op),
            Expr::UnaryOp {
                op: UnaryOp::Not, ..
            } => Prec::Not,
            Expr::UnaryOp { .. } => Prec::Factor,
            Expr::Lambda { .. } | Expr::IfExp { .. } => Prec::Test,
            Expr::Await { .. } => Prec::Await,
            Expr::Yield { .. } | Expr::YieldFrom { .. } => Prec::Yield,
            Expr::Compare { .. } => Prec::Cmp,
            Expr::Tuple { elts, .. } if elts.len() > 1 => Prec::Tuple,
            Expr::Constant { value, .. } => const_prec(value),
            _ => Prec::Atom,
        }
    }

    /// Prints `e` where an expression of at least `min` binding strength is needed.
    fn expr(&mut self, e: &Expr, min: Prec) {
        if self.fold_not {
            if let Some(folded) = fold_not(e) {
                return self.expr(&folded, min);
            }
        }
        if let Expr::JoinedStr { values } = e {
            self.joined_str(values, min);
            return;
        }
        let own = self.prec_of(e);
        let paren = own < min;
        let start = self.out.len();
        if paren {
            self.w("(");
        }
        self.expr_inner(e);
        if paren {
            self.w(")");
        }
        if self.line_codes.is_some()
            && matches!(
                e,
                Expr::Lambda { .. }
                    | Expr::ListComp { .. }
                    | Expr::SetComp { .. }
                    | Expr::DictComp { .. }
                    | Expr::GeneratorExp { .. }
            )
        {
            self.code_on_own_line(start, e);
        }
    }

    /// Through 3.10 two code objects that differ only in their lines compare equal, and the
    /// compiler keeps one of them: two lambdas or comprehensions written alike (`code_key`) on
    /// different lines (`f([str(x) for x in a],\n  [str(x) for x in b])`) are two code objects
    /// (their `line`s differ); printed on one line they would become one. The second such text on a line (printed from `start`)
    /// goes on a continuation line of its own (a backslash continuation is valid between any
    /// two tokens; not inside an f-string's replacement field, where a newline cannot be).
    fn code_on_own_line(&mut self, start: usize, e: &Expr) {
        let line = match e {
            Expr::Lambda { line, .. } => *line,
            Expr::ListComp { generators, .. }
            | Expr::SetComp { generators, .. }
            | Expr::DictComp { generators, .. }
            | Expr::GeneratorExp { generators, .. } => generators.first().and_then(|g| g.line),
            _ => None,
        };
        let Some(line) = line else {
            return;
        };
        let key = code_key(e, self.version);
        let Some(codes) = &mut self.line_codes else {
            return;
        };
        // (alike and of the same line: one constant in the original too, used twice)
        if !codes.iter().any(|(k, l)| *k == key && *l != line) {
            codes.push((key, line));
            return;
        }
        if self.fields > 0 || self.restricted.is_some() || self.out[start..].contains('\n') {
            return;
        }
        let space = if self.out[..start].ends_with(' ') {
            ""
        } else {
            " "
        };
        let mut brk = format!("{space}\\\n");
        for _ in 0..self.indent + 2 {
            brk.push_str("    ");
        }
        self.out.insert_str(start, &brk);
        self.line_codes = Some(vec![(key, line)]);
    }

    fn expr_inner(&mut self, e: &Expr) {
        match e {
            Expr::BoolOp { op, values } => {
                let (text, inner) = match op {
                    BoolOp::And => (" and ", Prec::Not),
                    BoolOp::Or => (" or ", Prec::And),
                };
                for (i, v) in values.iter().enumerate() {
                    if i > 0 {
                        self.w(text);
                    }
                    self.expr(v, inner);
                }
            }
            Expr::NamedExpr { target, value } => {
                self.expr(target, Prec::Atom);
                self.w(" := ");
                self.expr(value, Prec::Test);
            }
            Expr::BinOp { left, op, right } => {
                let p = binop_prec(*op);
                if *op == Operator::Pow {
                    self.expr(left, Prec::Await);
                    self.w(" ** ");
                    self.expr(right, Prec::Factor);
                } else {
                    // Walk the left spine of `a + b - c ...` iteratively: generated code can chain
                    // thousands of terms, more than the stack allows recursively.
                    let mut spine = vec![(*op, &**right)];
                    let mut first = &**left;
                    while let Expr::BinOp { left, op, right } = first {
                        if *op == Operator::Pow || binop_prec(*op) != p {
                            break;
                        }
                        spine.push((*op, &**right));
                        first = &**left;
                    }
                    self.expr(first, p);
                    for (op, right) in spine.iter().rev() {
                        self.w(" ");
                        self.w(binop_text(*op));
                        self.w(" ");
                        self.expr(right, p.next());
                    }
                }
            }
            Expr::UnaryOp { op, operand } => match op {
                UnaryOp::Not => {
                    self.w("not ");
                    self.expr(operand, Prec::Not);
                }
                UnaryOp::Invert | UnaryOp::UAdd | UnaryOp::USub => {
                    self.w(match op {
                        UnaryOp::Invert => "~",
                        UnaryOp::UAdd => "+",
                        _ => "-",
                    });
                    // `- -x` rather than `--x`, which reads like a decrement.
                    let inner_sign = matches!(
                        &**operand,
                        Expr::UnaryOp {
                            op: UnaryOp::USub | UnaryOp::UAdd,
                            ..
                        }
                    ) || self.prec_of(operand) == Prec::Factor
                        && matches!(&**operand, Expr::Constant { .. });
                    if inner_sign && *op != UnaryOp::Invert {
                        self.w(" ");
                    }
                    self.expr(operand, Prec::Factor);
                }
            },
            Expr::Lambda { args, body, .. } => {
                self.w("lambda");
                let has_args = !(args.posonlyargs.is_empty()
                    && args.args.is_empty()
                    && args.vararg.is_none()
                    && args.kwonlyargs.is_empty()
                    && args.kwarg.is_none());
                if has_args {
                    self.w(" ");
                    self.arguments(args, false);
                }
                self.w(": ");
                self.expr(body, Prec::Test);
            }
            Expr::IfExp { test, body, orelse } => {
                self.expr(body, Prec::Or);
                self.w(" if ");
                self.expr(test, Prec::Or);
                self.w(" else ");
                self.expr(orelse, Prec::Test);
            }
            Expr::Dict { keys, values } => {
                self.w("{");
                for (i, v) in values.iter().enumerate() {
                    if i > 0 {
                        self.w(", ");
                    }
                    match keys.get(i) {
                        Some(Some(k)) => {
                            self.expr(k, Prec::Test);
                            self.w(": ");
                            self.expr(v, Prec::Test);
                        }
                        _ => {
                            self.w("**");
                            self.expr(v, Prec::BOr);
                        }
                    }
                }
                self.w("}");
            }
            Expr::Set { elts } => {
                if elts.is_empty() {
                    self.w("set()");
                } else {
                    self.w("{");
                    self.comma_list(elts, Prec::Test);
                    self.w("}");
                }
            }
            Expr::ListComp { elt, generators } => {
                self.w("[");
                self.expr(elt, Prec::Test);
                self.comprehensions(generators);
                self.w("]");
            }
            Expr::SetComp { elt, generators } => {
                self.w("{");
                self.expr(elt, Prec::Test);
                self.comprehensions(generators);
                self.w("}");
            }
            Expr::DictComp {
                key,
                value,
                generators,
            } => {
                self.w("{");
                self.expr(key, Prec::Test);
                self.w(": ");
                self.expr(value, Prec::Test);
                self.comprehensions(generators);
                self.w("}");
            }
            Expr::GeneratorExp { elt, generators } => {
                self.w("(");
                self.expr(elt, Prec::Test);
                self.comprehensions(generators);
                self.w(")");
            }
            Expr::Await { value } => {
                self.w("await ");
                self.expr(value, Prec::Atom);
            }
            Expr::Yield { value } => {
                self.w("yield");
                if let Some(v) = value {
                    self.w(" ");
                    self.expr(v, Prec::Tuple);
                }
            }
            Expr::YieldFrom { value } => {
                self.w("yield from ");
                self.expr(value, Prec::Test);
            }
            Expr::Compare {
                left,
                ops,
                comparators,
            } => {
                self.expr(left, Prec::BOr);
                for (op, c) in ops.iter().zip(comparators) {
                    self.w(" ");
                    self.w(cmp_text(*op));
                    self.w(" ");
                    self.expr(c, Prec::BOr);
                }
            }
            Expr::Call {
                func,
                args,
                keywords,
            } => {
                self.expr(func, Prec::Atom);
                match (args.as_slice(), keywords.is_empty()) {
                    ([g @ Expr::GeneratorExp { .. }], true) => self.expr_inner(g),
                    _ => {
                        self.w("(");
                        self.call_args(args, keywords);
                        self.w(")");
                    }
                }
            }
            Expr::FormattedValue { .. } | Expr::Interpolation { .. } => {
                let prefix = if matches!(e, Expr::Interpolation { .. }) {
                    't'
                } else {
                    'f'
                };
                self.joined_like(std::slice::from_ref(e), prefix, Prec::Atom);
            }
            Expr::JoinedStr { values } => self.joined_str(values, Prec::Atom),
            Expr::TemplateStr { values } => self.joined_like(values, 't', Prec::Atom),
            Expr::Constant { value, kind } => {
                if let (Constant::Str(_), Some(k)) = (value, kind) {
                    if k == "u" {
                        self.w("u");
                    }
                }
                self.constant(value);
            }
            Expr::Attribute { value, attr, .. } => {
                let int_literal = matches!(
                    &**value,
                    Expr::Constant {
                        value: Constant::Int(_),
                        ..
                    }
                );
                if int_literal {
                    self.w("(");
                    self.expr(value, Prec::Test);
                    self.w(")");
                } else {
                    self.expr(value, Prec::Atom);
                }
                self.w(".");
                self.w(attr);
            }
            Expr::Subscript { value, slice, .. } => {
                self.expr(value, Prec::Atom);
                self.w("[");
                self.subscript_slice(slice);
                self.w("]");
            }
            Expr::Starred { value, .. } => {
                self.w("*");
                self.expr(value, Prec::BOr);
            }
            Expr::Name { id, .. } => self.w(id),
            Expr::List { elts, .. } => {
                self.w("[");
                self.comma_list(elts, Prec::Test);
                self.w("]");
            }
            Expr::Tuple { elts, .. } => match elts.as_slice() {
                [] => self.w("()"),
                [one] => {
                    self.w("(");
                    self.expr(one, Prec::Test);
                    self.w(",)");
                }
                _ => self.comma_list(elts, Prec::Test),
            },
            Expr::Slice { lower, upper, step } => {
                // A slice only parses inside a subscript; elsewhere this is the best we can do.
                self.slice(lower, upper, step);
            }
        }
    }

    fn slice_bound(&mut self, e: &Expr) {
        if matches!(e, Expr::Lambda { .. }) {
            self.w("(");
            self.expr(e, Prec::Test);
            self.w(")");
        } else {
            self.expr(e, Prec::Test);
        }
    }

    fn slice(
        &mut self,
        lower: &Option<Box<Expr>>,
        upper: &Option<Box<Expr>>,
        step: &Option<Box<Expr>>,
    ) {
        if let Some(l) = lower {
            self.slice_bound(l);
        }
        self.w(":");
        if let Some(u) = upper {
            self.slice_bound(u);
        }
        if let Some(s) = step {
            self.w(":");
            self.slice_bound(s);
        }
    }

    fn subscript_slice(&mut self, s: &Expr) {
        match s {
            Expr::Tuple { elts, .. } if !elts.is_empty() => {
                let starred = elts.iter().any(|e| matches!(e, Expr::Starred { .. }));
                let has_slice = elts.iter().any(|e| matches!(e, Expr::Slice { .. }));
                if starred && !has_slice && self.version < PyVersion::V3_11 {
                    self.w("(");
                    self.expr_inner(s);
                    self.w(")");
                    return;
                }
                for (i, e) in elts.iter().enumerate() {
                    if i > 0 {
                        self.w(", ");
                    }
                    self.subscript_elt(e);
                }
                if elts.len() == 1 {
                    self.w(",");
                }
            }
            _ => self.subscript_elt(s),
        }
    }

    fn subscript_elt(&mut self, e: &Expr) {
        match e {
            Expr::Slice { lower, upper, step } => self.slice(lower, upper, step),
            _ => self.expr(e, Prec::Test),
        }
    }

    fn comprehensions(&mut self, gens: &[Comprehension]) {
        for g in gens {
            self.w(if g.is_async { " async for " } else { " for " });
            self.expr(&g.target, Prec::Tuple);
            self.w(" in ");
            self.expr(&g.iter, Prec::Or);
            for (k, cond) in g.ifs.iter().enumerate() {
                // (a clause on a line of its own in the original: inside the brackets, as there)
                if g.ifs_apart.get(k) == Some(&true) && self.fields == 0 {
                    self.w("\n");
                    self.w(&"    ".repeat(self.indent + 1));
                    self.w("if ");
                } else {
                    self.w(" if ");
                }
                self.expr(cond, Prec::Or);
            }
        }
    }

    // ---------------------------------------------------------------- constants

    fn constant(&mut self, c: &Constant) {
        match c {
            Constant::None => self.w("None"),
            Constant::Bool(true) => self.w("True"),
            Constant::Bool(false) => self.w("False"),
            Constant::Ellipsis => self.w("..."),
            Constant::Int(digits) => {
                let (sign, mag) = match digits.strip_prefix('-') {
                    Some(m) => ("-", m),
                    None => ("", digits.as_str()),
                };
                if mag.len() > 4000 {
                    if let Some(h) = decimal_to_hex(mag) {
                        self.w(sign);
                        self.w("0x");
                        self.w(&h);
                        return;
                    }
                }
                self.w(digits);
            }
            Constant::Float(f) => match float_literal(*f) {
                Some(s) => self.w(&s),
                None => self.w(if f.is_sign_negative() {
                    "-float('nan')"
                } else {
                    "float('nan')"
                }),
            },
            Constant::Complex { real, imag } => self.complex(*real, *imag),
            Constant::Str(s) => self.str_lit(&s.0),
            Constant::Bytes(b) => self.bytes_lit(b),
            Constant::Tuple(items) => {
                self.w("(");
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.w(", ");
                    }
                    self.constant_at(item, Prec::Test);
                }
                if items.len() == 1 {
                    self.w(",");
                }
                self.w(")");
            }
            Constant::FrozenSet(items) => {
                self.w("frozenset(");
                if !items.is_empty() {
                    self.w("{");
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            self.w(", ");
                        }
                        self.constant_at(item, Prec::Test);
                    }
                    self.w("}");
                }
                self.w(")");
            }
            Constant::Opaque(name) => self.w(name),
        }
    }

    fn constant_at(&mut self, c: &Constant, min: Prec) {
        let paren = const_prec(c) < min;
        if paren {
            self.w("(");
        }
        self.constant(c);
        if paren {
            self.w(")");
        }
    }

    fn complex(&mut self, real: f64, imag: f64) {
        let simple_real = real == 0.0 && !real.is_sign_negative();
        match imag_literal(imag) {
            // `2j` is complex(0.0, 2.0); `-2j` is -(complex(0.0, 2.0)) = complex(-0.0, -2.0).
            Some(im) if simple_real && !imag.is_sign_negative() => {
                self.w(&im);
                self.w("j");
            }
            Some(im)
                if real == 0.0
                    && real.is_sign_negative()
                    && imag.is_sign_negative()
                    && !imag.is_nan() =>
            {
                self.w("-");
                self.w(&imag_literal(-imag).unwrap_or(im));
                self.w("j");
            }
            _ => {
                let (Some(r), Some(i)) = (float_literal(real), float_literal(imag)) else {
                    self.w("complex(");
                    self.w(&float_literal(real).unwrap_or_else(|| "float('nan')".into()));
                    self.w(", ");
                    self.w(&float_literal(imag).unwrap_or_else(|| "float('nan')".into()));
                    self.w(")");
                    return;
                };
                // real + imag*1j keeps both parts exactly unless real is -0.0 and imag >= 0.
                if real == 0.0 && real.is_sign_negative() {
                    self.w("complex(");
                    self.w(&r);
                    self.w(", ");
                    self.w(&i);
                    self.w(")");
                    return;
                }
                self.w("(");
                self.w(&r);
                match imag_literal(imag.abs()) {
                    Some(a) if !imag.is_sign_negative() => {
                        self.w(" + ");
                        self.w(&a);
                    }
                    Some(a) => {
                        self.w(" - ");
                        self.w(&a);
                    }
                    None => {}
                }
                self.w("j)");
            }
        }
    }

    /// Escapes `cps` into a literal body between `q` quotes (no prefix). Returns false if a
    /// character needed a backslash.
    fn escape_into(out: &mut String, cps: &[u32], q: Quote, braces: bool) -> bool {
        let mut clean = true;
        let qc = u32::from(q.ch());
        out.reserve(cps.len());
        for (i, &c) in cps.iter().enumerate() {
            // (printable ASCII that is neither a backslash, the quote nor a brace to double: as
            // it is; most of any text, docstrings above all)
            if (0x20..0x7F).contains(&c)
                && c != 0x5C
                && c != qc
                && !(braces && (c == 0x7B || c == 0x7D))
            {
                out.push(char::from(c as u8));
                continue;
            }
            let ch = char::from_u32(c);
            match c {
                0x5C => {
                    out.push_str("\\\\");
                    clean = false;
                }
                0x0A if q.triple() => out.push('\n'),
                0x0A => {
                    out.push_str("\\n");
                    clean = false;
                }
                0x0D => {
                    out.push_str("\\r");
                    clean = false;
                }
                0x09 => {
                    out.push_str("\\t");
                    clean = false;
                }
                _ if c == qc => {
                    let escape = if q.triple() {
                        i + 1 == cps.len() || cps.get(i + 1) == Some(&qc)
                    } else {
                        true
                    };
                    if escape {
                        out.push('\\');
                        clean = false;
                    }
                    out.push(q.ch());
                }
                0x7B | 0x7D if braces => {
                    let b = if c == 0x7B { '{' } else { '}' };
                    out.push(b);
                    out.push(b);
                }
                0..=0x1F | 0x7F..=0x9F => {
                    out.push_str(&format!("\\x{c:02x}"));
                    clean = false;
                }
                0xD800..=0xDFFF | 0x2028 | 0x2029 | 0xFEFF => {
                    out.push_str(&format!("\\u{c:04x}"));
                    clean = false;
                }
                _ => match ch {
                    Some(ch) => out.push(ch),
                    None => {
                        out.push_str(&format!("\\U{c:08x}"));
                        clean = false;
                    }
                },
            }
        }
        clean
    }

    /// The quote Python's `repr` would pick.
    fn repr_quote(cps: &[u32]) -> Quote {
        if cps.contains(&0x27) && !cps.contains(&0x22) {
            Quote::Double
        } else {
            Quote::Single
        }
    }

    /// A string literal body with quotes, in quote `q` (no prefix).
    fn str_body(&mut self, cps: &[u32], q: Quote) {
        self.w(q.text());
        // (straight into the output: no string of its own to grow and copy)
        Self::escape_into(&mut self.out, cps, q, false);
        self.w(q.text());
    }

    fn str_lit(&mut self, cps: &[u32]) {
        match self.restricted.clone() {
            None => self.str_body(cps, Self::repr_quote(cps)),
            Some(r) => {
                // Inside a pre-3.12 f-string expression: nothing that needs a backslash
                // and nothing that would end an enclosing string.
                for q in ALL_QUOTES {
                    let mut s = String::from(q.text());
                    let clean = Self::escape_into(&mut s, cps, q, false);
                    s.push_str(q.text());
                    if clean && !s.contains('\n') && fits(&s, &r.banned) {
                        self.w(&s);
                        return;
                    }
                }
                self.fail();
                self.str_body(cps, Quote::Single);
            }
        }
    }

    fn bytes_lit(&mut self, b: &[u8]) {
        let q = if b.contains(&b'\'') && !b.contains(&b'"') {
            Quote::Double
        } else {
            Quote::Single
        };
        let q = match &self.restricted {
            Some(r) if !fits(q.text(), &r.banned) => {
                if q == Quote::Single {
                    Quote::Double
                } else {
                    Quote::Single
                }
            }
            _ => q,
        };
        let mut s = String::new();
        let mut clean = true;
        for &c in b {
            match c {
                b'\\' => {
                    s.push_str("\\\\");
                    clean = false;
                }
                b'\n' => {
                    s.push_str("\\n");
                    clean = false;
                }
                b'\r' => {
                    s.push_str("\\r");
                    clean = false;
                }
                b'\t' => {
                    s.push_str("\\t");
                    clean = false;
                }
                _ if c == q.ch() as u8 => {
                    s.push('\\');
                    s.push(c as char);
                    clean = false;
                }
                0x20..=0x7E => s.push(c as char),
                _ => {
                    s.push_str(&format!("\\x{c:02x}"));
                    clean = false;
                }
            }
        }
        let text = format!("b{}{}{}", q.text(), s, q.text());
        if let Some(r) = &self.restricted {
            if !clean || !fits(&text, &r.banned) {
                self.fail();
            }
        }
        self.w(&text);
    }

    // ---------------------------------------------------------------- f-strings

    fn joined_str(&mut self, values: &[Expr], min: Prec) {
        self.joined_like(values, 'f', min);
    }

    /// An f-string (`prefix` 'f') or t-string ('t') of `values`.
    fn joined_like(&mut self, values: &[Expr], prefix: char, min: Prec) {
        let literal: Vec<u32> = values
            .iter()
            .filter_map(is_str_const)
            .flat_map(|s| s.0.iter().copied())
            .collect();
        if self.pep701() || prefix == 't' {
            // 3.12+: quotes may be reused inside replacement fields and backslashes are fine.
            let q = Self::repr_quote(&literal);
            let s = self.fstring_text(values, q, prefix);
            self.w(&s);
            return;
        }
        let first = Self::repr_quote(&literal);
        let order = std::iter::once(first).chain(ALL_QUOTES.into_iter().filter(|&q| q != first));
        let outer = self.restricted.clone();
        for q in order {
            let mut sub = Printer::new(self.version);
            sub.fold_not = self.fold_not;
            let mut banned = outer.as_ref().map(|r| r.banned.clone()).unwrap_or_default();
            banned.push(q);
            sub.restricted = Some(Restricted {
                banned,
                failed: false,
            });
            let s = sub.fstring_text(values, q, prefix);
            let failed = sub.restricted.is_some_and(|r| r.failed);
            // Literal parts of a nested f-string sit inside the outer expression: no backslashes.
            let nested_bad = outer
                .as_ref()
                .is_some_and(|r| s.contains('\\') || !fits(&s, &r.banned));
            if !failed && !nested_bad {
                self.w(&s);
                return;
            }
        }
        if outer.is_some() {
            self.fail();
            return;
        }
        self.fstring_fallback(values, min);
    }

    /// `f'...'` text of `values` in quote `q`, replacement fields printed by `self`.
    fn fstring_text(&mut self, values: &[Expr], q: Quote, prefix: char) -> String {
        let saved = std::mem::take(&mut self.out);
        self.out.push(prefix);
        self.w(q.text());
        self.fstring_parts(values, q);
        self.w(q.text());
        std::mem::replace(&mut self.out, saved)
    }

    fn fstring_parts(&mut self, values: &[Expr], q: Quote) {
        for v in values {
            match v {
                Expr::Constant {
                    value: Constant::Str(s),
                    ..
                } => {
                    // A triple-quoted f-string gets `\n` escapes too: fields cannot span lines
                    // before 3.12 anyway and it keeps the output on one line.
                    let q1 = if q.triple() {
                        if q.ch() == '\'' {
                            Quote::Single
                        } else {
                            Quote::Double
                        }
                    } else {
                        q
                    };
                    let mut out = String::new();
                    Self::escape_into(&mut out, &s.0, q1, true);
                    self.w(&out);
                }
                Expr::FormattedValue {
                    value,
                    conversion,
                    format_spec,
                }
                | Expr::Interpolation {
                    value,
                    conversion,
                    format_spec,
                    ..
                } => {
                    if self.spec_depth >= 2 {
                        // "f-string: expressions nested too deeply" before 3.12.
                        self.fail();
                    }
                    self.w("{");
                    let start = self.out.len();
                    self.fields += 1;
                    match (&**value, v) {
                        // a t-string field's source text is part of its value: as written
                        (_, Expr::Interpolation { str, .. }) if !str.is_empty() => self.w(str),
                        (Expr::Lambda { .. } | Expr::NamedExpr { .. } | Expr::Yield { .. }, _) => {
                            self.w("(");
                            self.expr(value, Prec::Tuple);
                            self.w(")");
                        }
                        _ => self.expr(value, Prec::Test),
                    }
                    self.fields -= 1;
                    if self.out[start..].starts_with('{') {
                        self.out.insert(start, ' ');
                    }
                    self.w(conversion_text(*conversion));
                    if let Some(spec) = format_spec {
                        self.w(":");
                        self.spec_depth += 1;
                        match &**spec {
                            Expr::JoinedStr { values } => self.fstring_parts(values, q),
                            other => self.fstring_parts(std::slice::from_ref(other), q),
                        }
                        self.spec_depth -= 1;
                    }
                    self.w("}");
                }
                other => {
                    // Not a valid f-string part; print it as a field.
                    self.w("{");
                    self.expr(other, Prec::Test);
                    self.w("}");
                }
            }
        }
    }

    /// `'lit' + format(x, spec) + ...`: the f-string spelled without f-string syntax.
    fn fstring_fallback(&mut self, values: &[Expr], min: Prec) {
        let n = values.len();
        if n == 0 {
            self.w("''");
            return;
        }
        let paren = n > 1 && min > Prec::Arith;
        if paren {
            self.w("(");
        }
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                self.w(" + ");
            }
            match v {
                Expr::FormattedValue {
                    value,
                    conversion,
                    format_spec,
                } => {
                    self.w("format(");
                    let wrap = match conversion {
                        Conversion::None => None,
                        Conversion::Str => Some("str("),
                        Conversion::Repr => Some("repr("),
                        Conversion::Ascii => Some("ascii("),
                    };
                    if let Some(wr) = wrap {
                        self.w(wr);
                    }
                    self.expr(value, Prec::Test);
                    if wrap.is_some() {
                        self.w(")");
                    }
                    if let Some(spec) = format_spec {
                        self.w(", ");
                        self.expr(spec, Prec::Test);
                    }
                    self.w(")");
                }
                other => self.expr(other, Prec::Term),
            }
        }
        if paren {
            self.w(")");
        }
    }

    // ---------------------------------------------------------------- patterns

    fn pattern(&mut self, p: &Pattern, min: PPrec) {
        let own = match p {
            Pattern::MatchAs {
                pattern: Some(_), ..
            } => PPrec::As,
            Pattern::MatchOr { patterns } if patterns.len() > 1 => PPrec::Or,
            _ => PPrec::Atom,
        };
        let paren = own < min;
        if paren {
            self.w("(");
        }
        match p {
            Pattern::MatchValue { value } => self.expr(value, Prec::BOr),
            Pattern::MatchSingleton { value } => self.constant(value),
            Pattern::MatchSequence { patterns } => {
                self.w("[");
                self.patterns(patterns);
                self.w("]");
            }
            Pattern::MatchMapping {
                keys,
                patterns,
                rest,
            } => {
                self.w("{");
                let mut first = true;
                for (k, v) in keys.iter().zip(patterns) {
                    if !first {
                        self.w(", ");
                    }
                    first = false;
                    self.expr(k, Prec::BOr);
                    self.w(": ");
                    self.pattern(v, PPrec::As);
                }
                if let Some(r) = rest {
                    if !first {
                        self.w(", ");
                    }
                    self.w("**");
                    self.w(r);
                }
                self.w("}");
            }
            Pattern::MatchClass {
                cls,
                patterns,
                kwd_attrs,
                kwd_patterns,
            } => {
                self.expr(cls, Prec::Atom);
                self.w("(");
                self.patterns(patterns);
                let mut first = patterns.is_empty();
                for (k, v) in kwd_attrs.iter().zip(kwd_patterns) {
                    if !first {
                        self.w(", ");
                    }
                    first = false;
                    self.w(k);
                    self.w("=");
                    self.pattern(v, PPrec::As);
                }
                self.w(")");
            }
            Pattern::MatchStar { name } => {
                self.w("*");
                self.w(name.as_deref().unwrap_or("_"));
            }
            Pattern::MatchAs { pattern, name } => match (pattern, name) {
                (None, None) => self.w("_"),
                (None, Some(n)) => self.w(n),
                (Some(p), n) => {
                    self.pattern(p, PPrec::Or);
                    self.w(" as ");
                    self.w(n.as_deref().unwrap_or("_"));
                }
            },
            Pattern::MatchOr { patterns } => {
                for (i, alt) in patterns.iter().enumerate() {
                    if i > 0 {
                        self.w(" | ");
                    }
                    self.pattern(alt, PPrec::Atom);
                }
            }
        }
        if paren {
            self.w(")");
        }
    }

    fn patterns(&mut self, ps: &[Pattern]) {
        for (i, p) in ps.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            self.pattern(p, PPrec::As);
        }
    }
}

/// Whether `text` can stand inside the expression part of pre-3.12 f-strings quoted with
/// `banned`: the tokenizer reads such an f-string as a plain string first, so `text` must not end
/// it. (A `#` inside a string there is fine; we never print a comment.)
fn fits(text: &str, banned: &[Quote]) -> bool {
    banned.iter().all(|q| {
        if q.triple() {
            let doubled: String = [q.ch(), q.ch()].iter().collect();
            !text.contains(&doubled)
        } else {
            !text.contains(q.ch())
        }
    })
}

/// The binding strength of a constant as printed: negative numbers are unary minus.
fn const_prec(c: &Constant) -> Prec {
    match c {
        Constant::Int(s) if s.starts_with('-') => Prec::Factor,
        Constant::Float(f) if f.is_sign_negative() => Prec::Factor,
        Constant::Complex { real, imag }
            if *real == 0.0 && real.is_sign_negative() && imag.is_sign_negative() =>
        {
            Prec::Factor
        }
        _ => Prec::Atom,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(id: &str) -> Expr {
        Expr::name(id)
    }
    fn b(e: Expr) -> Box<Expr> {
        Box::new(e)
    }
    fn c(v: Constant) -> Expr {
        Expr::constant(v)
    }
    fn int(i: i64) -> Expr {
        c(Constant::int(i))
    }
    fn bin(l: Expr, op: Operator, r: Expr) -> Expr {
        Expr::BinOp {
            left: b(l),
            op,
            right: b(r),
        }
    }
    fn un(op: UnaryOp, e: Expr) -> Expr {
        Expr::UnaryOp { op, operand: b(e) }
    }
    fn tuple(elts: Vec<Expr>) -> Expr {
        Expr::Tuple {
            elts,
            ctx: ExprContext::Load,
        }
    }
    fn fv(e: Expr, conversion: Conversion, spec: Option<Expr>) -> Expr {
        Expr::FormattedValue {
            value: b(e),
            conversion,
            format_spec: spec.map(b),
        }
    }
    fn joined(values: Vec<Expr>) -> Expr {
        Expr::JoinedStr { values }
    }
    fn s(t: &str) -> Expr {
        c(Constant::str(t))
    }
    fn call(f: Expr, args: Vec<Expr>) -> Expr {
        Expr::Call {
            func: b(f),
            args,
            keywords: vec![],
        }
    }
    fn attr(e: Expr, a: &str) -> Expr {
        Expr::Attribute {
            value: b(e),
            attr: a.into(),
            ctx: ExprContext::Load,
        }
    }
    fn pe(e: &Expr) -> String {
        print_expr(e, PyVersion::V3_13)
    }
    fn pe_at(e: &Expr, v: PyVersion) -> String {
        print_expr(e, v)
    }

    #[test]
    fn precedence_and_associativity() {
        use Operator::*;
        assert_eq!(
            pe(&bin(n("a"), Sub, bin(n("b"), Sub, n("c")))),
            "a - (b - c)"
        );
        assert_eq!(pe(&bin(bin(n("a"), Sub, n("b")), Sub, n("c"))), "a - b - c");
        assert_eq!(
            pe(&bin(
                bin(n("a"), Mult, n("b")),
                Add,
                bin(n("c"), Add, n("d"))
            )),
            "a * b + (c + d)"
        );
        assert_eq!(
            pe(&bin(bin(n("a"), Add, n("b")), Mult, n("c"))),
            "(a + b) * c"
        );
        assert_eq!(
            pe(&bin(n("a"), Pow, bin(n("b"), Pow, n("c")))),
            "a ** b ** c"
        );
        assert_eq!(
            pe(&bin(bin(n("a"), Pow, n("b")), Pow, n("c"))),
            "(a ** b) ** c"
        );
        assert_eq!(pe(&un(UnaryOp::USub, bin(n("x"), Pow, int(2)))), "-x ** 2");
        assert_eq!(
            pe(&bin(un(UnaryOp::USub, n("x")), Pow, int(2))),
            "(-x) ** 2"
        );
        assert_eq!(pe(&bin(int(2), Pow, un(UnaryOp::USub, int(1)))), "2 ** -1");
        assert_eq!(pe(&bin(int(-1), Pow, int(2))), "(-1) ** 2");
        assert_eq!(
            pe(&bin(c(Constant::Float(-0.5)), Pow, int(2))),
            "(-0.5) ** 2"
        );
        assert_eq!(pe(&attr(int(1), "real")), "(1).real");
        assert_eq!(pe(&attr(c(Constant::Float(1.0)), "real")), "1.0.real");
        assert_eq!(pe(&un(UnaryOp::USub, int(-1))), "- -1");
        assert_eq!(pe(&un(UnaryOp::USub, un(UnaryOp::USub, n("x")))), "- -x");
        let eq = Expr::Compare {
            left: b(n("a")),
            ops: vec![CmpOp::Eq],
            comparators: vec![n("b")],
        };
        assert_eq!(pe(&un(UnaryOp::Not, eq.clone())), "not a == b");
        let noteq = Expr::Compare {
            left: b(un(UnaryOp::Not, n("a"))),
            ops: vec![CmpOp::Eq],
            comparators: vec![n("b")],
        };
        assert_eq!(pe(&noteq), "(not a) == b");
        let chained = Expr::Compare {
            left: b(eq),
            ops: vec![CmpOp::Lt, CmpOp::IsNot],
            comparators: vec![n("c"), n("d")],
        };
        assert_eq!(pe(&chained), "(a == b) < c is not d");
        let aw = Expr::Await { value: b(n("x")) };
        assert_eq!(pe(&bin(aw.clone(), Pow, int(2))), "await x ** 2");
        assert_eq!(pe(&un(UnaryOp::USub, aw.clone())), "-await x");
        assert_eq!(
            pe(&Expr::Await {
                value: b(aw.clone())
            }),
            "await (await x)"
        );
        assert_eq!(pe(&attr(aw, "y")), "(await x).y");
        let or = Expr::BoolOp {
            op: BoolOp::Or,
            values: vec![n("a"), n("b")],
        };
        let and = Expr::BoolOp {
            op: BoolOp::And,
            values: vec![or.clone(), n("c")],
        };
        assert_eq!(pe(&and), "(a or b) and c");
        let or2 = Expr::BoolOp {
            op: BoolOp::Or,
            values: vec![n("x"), or],
        };
        assert_eq!(pe(&or2), "x or (a or b)");
    }

    #[test]
    fn test_level_contexts() {
        let lam = Expr::Lambda {
            args: Box::default(),
            body: b(Expr::Yield { value: None }),
            line: None,
        };
        assert_eq!(pe(&lam), "lambda: (yield)");
        let ife = Expr::IfExp {
            test: b(n("b")),
            body: b(lam.clone()),
            orelse: b(lam.clone()),
        };
        assert_eq!(pe(&ife), "(lambda: (yield)) if b else lambda: (yield)");
        let walrus = Expr::NamedExpr {
            target: b(n("x")),
            value: b(int(1)),
        };
        assert_eq!(pe(&walrus), "(x := 1)");
        assert_eq!(pe(&call(n("f"), vec![walrus.clone()])), "f((x := 1))");
        assert_eq!(pe(&tuple(vec![n("a"), n("b")])), "a, b");
        assert_eq!(pe(&tuple(vec![n("a")])), "(a,)");
        assert_eq!(pe(&tuple(vec![])), "()");
        assert_eq!(
            pe(&call(n("f"), vec![tuple(vec![n("a"), n("b")])])),
            "f((a, b))"
        );
        let gen = Expr::GeneratorExp {
            elt: b(n("x")),
            generators: vec![Comprehension {
                target: n("x"),
                iter: n("y"),
                ifs: vec![],
                is_async: false,
                ifs_apart: vec![],
                line: None,
            }],
        };
        assert_eq!(pe(&call(n("f"), vec![gen.clone()])), "f(x for x in y)");
        assert_eq!(pe(&call(n("f"), vec![gen, int(1)])), "f((x for x in y), 1)");
        let y = Expr::Yield {
            value: Some(b(tuple(vec![n("a"), n("b")]))),
        };
        assert_eq!(pe(&y), "yield a, b");
        assert_eq!(pe(&bin(y, Operator::Add, int(1))), "(yield a, b) + 1");
        let star = Expr::Starred {
            value: b(bin(n("a"), Operator::BitOr, n("b"))),
            ctx: ExprContext::Load,
        };
        assert_eq!(pe(&tuple(vec![star.clone(), n("c")])), "*a | b, c");
        let sub = Expr::Subscript {
            value: b(n("a")),
            slice: b(tuple(vec![star, n("c")])),
            ctx: ExprContext::Load,
        };
        assert_eq!(pe_at(&sub, PyVersion::V3_11), "a[*a | b, c]");
        assert_eq!(pe_at(&sub, PyVersion::V3_10), "a[(*a | b, c)]");
        let slices = Expr::Subscript {
            value: b(n("a")),
            slice: b(tuple(vec![
                Expr::Slice {
                    lower: Some(b(int(1))),
                    upper: Some(b(int(2))),
                    step: None,
                },
                Expr::Slice {
                    lower: None,
                    upper: None,
                    step: Some(b(int(3))),
                },
            ])),
            ctx: ExprContext::Load,
        };
        assert_eq!(pe(&slices), "a[1:2, ::3]");
        let dict = Expr::Dict {
            keys: vec![Some(s("k")), None],
            values: vec![int(1), n("d")],
        };
        assert_eq!(pe(&dict), "{'k': 1, **d}");
    }

    #[test]
    fn constants() {
        let p = |v: Constant| pe(&c(v));
        assert_eq!(p(Constant::Float(1.0)), "1.0");
        assert_eq!(p(Constant::Float(0.1)), "0.1");
        assert_eq!(p(Constant::Float(1e22)), "1e22");
        assert_eq!(p(Constant::Float(f64::INFINITY)), "1e309");
        assert_eq!(p(Constant::Float(f64::NEG_INFINITY)), "-1e309");
        assert_eq!(p(Constant::Float(f64::NAN)), "float('nan')");
        assert_eq!(p(Constant::Float(-0.0)), "-0.0");
        assert_eq!(
            p(Constant::Complex {
                real: 0.0,
                imag: 2.0
            }),
            "2j"
        );
        assert_eq!(
            p(Constant::Complex {
                real: 0.0,
                imag: 1.5
            }),
            "1.5j"
        );
        assert_eq!(
            p(Constant::Complex {
                real: -0.0,
                imag: -2.0
            }),
            "-2j"
        );
        assert_eq!(
            p(Constant::Complex {
                real: 1.0,
                imag: 2.0
            }),
            "(1.0 + 2j)"
        );
        assert_eq!(
            p(Constant::Complex {
                real: 1.0,
                imag: -2.0
            }),
            "(1.0 - 2j)"
        );
        assert_eq!(
            p(Constant::Complex {
                real: -0.0,
                imag: 2.0
            }),
            "complex(-0.0, 2.0)"
        );
        assert_eq!(p(Constant::Int("-5".into())), "-5");
        let big = format!("1{}", "0".repeat(4500));
        assert!(p(Constant::Int(big)).starts_with("0x"));
        assert_eq!(decimal_to_hex("255").as_deref(), Some("ff"));
        assert_eq!(decimal_to_hex("0").as_deref(), Some("0"));
        assert_eq!(decimal_to_hex("12x"), None);
        assert_eq!(p(Constant::Tuple(vec![])), "()");
        assert_eq!(p(Constant::Tuple(vec![Constant::int(1)])), "(1,)");
        assert_eq!(
            p(Constant::Tuple(vec![Constant::int(-1), Constant::str("a")])),
            "(-1, 'a')"
        );
        assert_eq!(p(Constant::FrozenSet(vec![])), "frozenset()");
        assert_eq!(
            p(Constant::FrozenSet(vec![
                Constant::int(1),
                Constant::int(2)
            ])),
            "frozenset({1, 2})"
        );
        assert_eq!(p(Constant::Opaque("os.sep".into())), "os.sep");
        assert_eq!(p(Constant::Ellipsis), "...");
        assert_eq!(
            p(Constant::Bytes(b"a'\x00\xff".to_vec())),
            "b\"a'\\x00\\xff\""
        );
        assert_eq!(p(Constant::str("it's")), "\"it's\"");
        assert_eq!(p(Constant::str("'\"")), "'\\'\"'");
        assert_eq!(
            p(Constant::Str(StrValue(vec![
                0x61, 0xD800, 0x0A, 0x2028, 0xE9
            ]))),
            "'a\\ud800\\n\\u2028\u{e9}'"
        );
        assert_eq!(
            pe(&attr(c(Constant::Int("-1".into())), "real")),
            "(-1).real"
        );
    }

    #[test]
    fn fstrings() {
        let spec = joined(vec![s(">"), fv(n("w"), Conversion::None, None)]);
        let f = joined(vec![
            s("a{"),
            fv(n("x"), Conversion::Repr, Some(spec)),
            s("'"),
        ]);
        assert_eq!(pe_at(&f, PyVersion::V3_8), "f\"a{{{x!r:>{w}}'\"");
        // A field needing a string with the outer quote and a backslash: 3.12 spells it directly.
        let join = call(attr(s("\n"), "join"), vec![n("z")]);
        let f2 = joined(vec![s("it's "), fv(join.clone(), Conversion::None, None)]);
        assert_eq!(pe_at(&f2, PyVersion::V3_12), "f\"it's {'\\n'.join(z)}\"");
        assert_eq!(
            pe_at(&f2, PyVersion::V3_11),
            "\"it's \" + format('\\n'.join(z))"
        );
        assert_eq!(
            pe_at(&bin(f2, Operator::Mult, int(2)), PyVersion::V3_8),
            "(\"it's \" + format('\\n'.join(z))) * 2"
        );
        // Nested quotes before 3.12: each level picks a quote no enclosing string uses.
        let inner = joined(vec![fv(
            call(attr(s(", "), "join"), vec![n("x")]),
            Conversion::None,
            None,
        )]);
        let outer = joined(vec![fv(inner, Conversion::None, None)]);
        assert_eq!(
            pe_at(&outer, PyVersion::V3_8),
            "f'{f\"\"\"{\", \".join(x)}\"\"\"}'"
        );
        let dict_field = joined(vec![fv(
            Expr::Dict {
                keys: vec![],
                values: vec![],
            },
            Conversion::None,
            None,
        )]);
        assert_eq!(pe(&dict_field), "f'{ {}}'");
        let lam = joined(vec![fv(
            Expr::Lambda {
                args: Box::default(),
                body: b(int(1)),
                line: None,
            },
            Conversion::None,
            None,
        )]);
        assert_eq!(pe(&lam), "f'{(lambda: 1)}'");
        assert_eq!(pe(&joined(vec![])), "f''");
    }

    #[test]
    fn statements() {
        let v = PyVersion::V3_12;
        let func = Stmt::FunctionDef(Box::new(FunctionDef {
            name: "f".into(),
            args: Arguments {
                posonlyargs: vec![Arg::new("a")],
                args: vec![Arg {
                    arg: "b".into(),
                    annotation: Some(n("int")),
                }],
                vararg: None,
                kwonlyargs: vec![Arg::new("c"), Arg::new("d")],
                kw_defaults: vec![None, Some(int(1))],
                kwarg: Some(Arg::new("kw")),
                defaults: vec![int(0), int(2)],
            },
            body: vec![Stmt::Expr { value: s("Doc.") }],
            decorator_list: vec![attr(n("a"), "b")],
            returns: Some(n("T")),
            type_params: vec![TypeParam::TypeVar {
                name: "T".into(),
                bound: Some(n("int")),
                default_value: None,
            }],
        }));
        assert_eq!(
            print_stmt(&func, v),
            "@a.b\ndef f[T: int](a=0, /, b: int = 2, *, c, d=1, **kw) -> T:\n    \"\"\"Doc.\"\"\"\n"
        );
        let empty_if = Stmt::If {
            test: n("x"),
            body: vec![],
            orelse: vec![Stmt::If {
                test: n("y"),
                body: vec![Stmt::Pass],
                orelse: vec![Stmt::Break],
            }],
        };
        assert_eq!(
            print_stmt(&empty_if, v),
            "if x:\n    pass\nelif y:\n    pass\nelse:\n    break\n"
        );
        let ann = Stmt::AnnAssign {
            target: n("x"),
            annotation: n("int"),
            value: None,
            simple: false,
        };
        assert_eq!(print_stmt(&ann, v), "(x): int\n");
        let del = Stmt::Delete {
            targets: vec![n("a"), tuple(vec![n("b"), n("c")])],
        };
        assert_eq!(print_stmt(&del, v), "del a, (b, c)\n");
        let imp = Stmt::ImportFrom {
            module: None,
            names: vec![Alias {
                name: "x".into(),
                asname: Some("y".into()),
            }],
            level: 2,
        };
        assert_eq!(print_stmt(&imp, v), "from .. import x as y\n");
        let ret = Stmt::Return {
            value: Some(Expr::Yield { value: None }),
        };
        assert_eq!(print_stmt(&ret, v), "return (yield)\n");
        let try_star = Stmt::TryStar {
            body: vec![],
            handlers: vec![ExceptHandler {
                type_: Some(tuple(vec![n("A"), n("B")])),
                name: Some("e".into()),
                body: vec![],
            }],
            orelse: vec![],
            finalbody: vec![],
        };
        assert_eq!(
            print_stmt(&try_star, v),
            "try:\n    pass\nexcept* (A, B) as e:\n    pass\n"
        );
        let m = Stmt::Match {
            subject: n("p"),
            cases: vec![MatchCase {
                pattern: Pattern::MatchAs {
                    pattern: Some(Box::new(Pattern::MatchOr {
                        patterns: vec![
                            Pattern::MatchClass {
                                cls: n("P"),
                                patterns: vec![Pattern::MatchValue { value: int(0) }],
                                kwd_attrs: vec!["y".into()],
                                kwd_patterns: vec![Pattern::MatchAs {
                                    pattern: None,
                                    name: Some("y".into()),
                                }],
                            },
                            Pattern::MatchSequence {
                                patterns: vec![Pattern::MatchStar { name: None }],
                            },
                        ],
                    })),
                    name: Some("q".into()),
                },
                guard: None,
                body: vec![Stmt::Pass],
            }],
        };
        assert_eq!(
            print_stmt(&m, v),
            "match p:\n    case P(0, y=y) | [*_] as q:\n        pass\n"
        );
        let with = Stmt::With {
            items: vec![WithItem {
                context_expr: tuple(vec![n("a"), n("b")]),
                optional_vars: None,
            }],
            body: vec![],
        };
        assert_eq!(print_stmt(&with, v), "with ((a, b)):\n    pass\n");
        let module = vec![
            Stmt::Import {
                names: vec![Alias {
                    name: "os".into(),
                    asname: None,
                }],
            },
            Stmt::ClassDef(Box::new(ClassDef {
                name: "C".into(),
                bases: vec![],
                keywords: vec![],
                body: vec![],
                decorator_list: vec![],
                type_params: vec![],
            })),
            Stmt::Global {
                names: vec!["a".into(), "b".into()],
            },
        ];
        assert_eq!(
            print_module(&module, v),
            "import os\n\n\nclass C:\n    pass\n\n\nglobal a, b\n"
        );
    }

    #[test]
    fn long_operator_chain() {
        let mut e = n("a");
        for _ in 0..100_000 {
            e = bin(e, Operator::Add, n("b"));
        }
        assert_eq!(pe(&e).len(), 1 + 100_000 * 4);
        // Dropping a deep tree recurses too; that is the caller's business.
        std::mem::forget(e);
    }

    #[test]
    fn alike_code_objects_of_different_lines_stay_apart() {
        let lam = |line: Option<i32>| Expr::Lambda {
            args: Box::default(),
            body: b(n("x")),
            line,
        };
        let pair = |a, c| tuple(vec![lam(a), lam(c)]);
        // two constants in the original: on lines of their own through 3.10
        assert_eq!(
            pe_at(&pair(Some(3), Some(4)), PyVersion::V3_10),
            "lambda: x, \\\n        lambda: x"
        );
        // one constant used twice, or 3.11+ (whose code objects differ by their columns too)
        assert_eq!(
            pe_at(&pair(Some(3), Some(3)), PyVersion::V3_10),
            "lambda: x, lambda: x"
        );
        assert_eq!(
            pe_at(&pair(Some(3), Some(4)), PyVersion::V3_11),
            "lambda: x, lambda: x"
        );
        // alike code objects need alike bodies
        let other = tuple(vec![
            lam(Some(3)),
            Expr::Lambda {
                args: Box::default(),
                body: b(n("y")),
                line: Some(4),
            },
        ]);
        assert_eq!(pe_at(&other, PyVersion::V3_10), "lambda: x, lambda: y");
    }

    #[test]
    fn odd_trees_do_not_panic() {
        let weird = Stmt::Try {
            body: vec![],
            handlers: vec![],
            orelse: vec![],
            finalbody: vec![],
        };
        assert_eq!(
            print_stmt(&weird, PyVersion::V3_8),
            "try:\n    pass\nfinally:\n    pass\n"
        );
        let args = Arguments {
            defaults: vec![int(1), int(2), int(3)],
            kw_defaults: vec![Some(int(1))],
            args: vec![Arg::new("a")],
            ..Arguments::default()
        };
        let lam = Expr::Lambda {
            args: Box::new(args),
            body: b(n("a")),
            line: None,
        };
        assert_eq!(pe(&lam), "lambda a=3: a");
        let dict = Expr::Dict {
            keys: vec![Some(n("a")), Some(n("b"))],
            values: vec![n("x")],
        };
        assert_eq!(pe(&dict), "{a: x}");
        let cmp = Expr::Compare {
            left: b(n("a")),
            ops: vec![CmpOp::Eq],
            comparators: vec![],
        };
        assert_eq!(pe(&cmp), "a");
        let m = Stmt::Match {
            subject: n("x"),
            cases: vec![],
        };
        assert!(print_stmt(&m, PyVersion::V3_10).contains("case _ if False"));
        let bad_str = c(Constant::Str(StrValue(vec![0x11_0000, 0xDFFF])));
        assert_eq!(pe(&bad_str), "'\\U00110000\\udfff'");
        let _ = pe(&fv(n("x"), Conversion::None, Some(n("y"))));
        let _ = pe(&Expr::Slice {
            lower: None,
            upper: None,
            step: None,
        });
        let _ = pe(&Expr::Set { elts: vec![] });
        let _ = pe(&c(Constant::Int(String::new())));
    }
}
