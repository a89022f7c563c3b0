//! The Python syntax tree the decompiler builds and [`crate::printer`] writes as source.
//!
//! Node and field names follow CPython's `ast` module (the 3.14 grammar, a superset of 3.8-3.13),
//! so `ast.dump` output reads straight across. Differences, all deliberate:
//! - no positions and no `type_comment` fields;
//! - `ExceptHandler::type_` for the Python field `type`;
//! - 3.8's `Index`/`ExtSlice` wrappers do not exist: a subscript's `slice` is the expression
//!   itself (a `Tuple` for `a[1:2, 3]`), as in 3.9+;
//! - constants are [`Constant`], which can hold every constant a code object can hold
//!   (including lone surrogates in strings, huge ints, tuples and frozensets of constants).
//!
//! A block of statements is a [`Body`]; should statements ever carry a line, that alias is the one
//! place to change.

/// An identifier (a name, attribute, keyword or module name).
pub type Identifier = String;

/// A block of statements: a module, a function body, a branch.
pub type Body = Vec<Stmt>;

/// `ast.Load`, `ast.Store`, `ast.Del`. The printer ignores it; it is kept so that trees compare
/// with CPython's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ExprContext {
    #[default]
    Load,
    Store,
    Del,
}

/// `ast.And`, `ast.Or`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoolOp {
    And,
    Or,
}

/// Binary operators (`ast.operator`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operator {
    Add,
    Sub,
    Mult,
    MatMult,
    Div,
    Mod,
    Pow,
    LShift,
    RShift,
    BitOr,
    BitXor,
    BitAnd,
    FloorDiv,
}

/// Unary operators (`ast.unaryop`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Invert,
    Not,
    UAdd,
    USub,
}

/// Comparison operators (`ast.cmpop`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    NotEq,
    Lt,
    LtE,
    Gt,
    GtE,
    Is,
    IsNot,
    In,
    NotIn,
}

/// The `!s`/`!r`/`!a` conversion of a formatted value (`conversion` is -1, 115, 114, 97 in `ast`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Conversion {
    #[default]
    None,
    Str,
    Repr,
    Ascii,
}

impl Conversion {
    /// From `ast`'s integer code (-1, 115 `s`, 114 `r`, 97 `a`); other codes give `None`.
    pub fn from_code(code: i64) -> Option<Conversion> {
        match code {
            -1 => Some(Conversion::None),
            115 => Some(Conversion::Str),
            114 => Some(Conversion::Repr),
            97 => Some(Conversion::Ascii),
            _ => None,
        }
    }

    /// `ast`'s integer code.
    pub fn code(self) -> i64 {
        match self {
            Conversion::None => -1,
            Conversion::Str => 115,
            Conversion::Repr => 114,
            Conversion::Ascii => 97,
        }
    }
}

/// A Python `str` value as code points, so that lone surrogates (U+D800..U+DFFF) survive.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct StrValue(pub Vec<u32>);

impl StrValue {
    pub fn new(s: &str) -> StrValue {
        StrValue(s.chars().map(u32::from).collect())
    }

    /// The text when every code point is a Unicode scalar value (no lone surrogates).
    pub fn to_string_lossless(&self) -> Option<String> {
        self.0.iter().map(|&c| char::from_u32(c)).collect()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<&str> for StrValue {
    fn from(s: &str) -> StrValue {
        StrValue::new(s)
    }
}

/// A constant value: what `ast.Constant.value` holds, plus what only a code object can hold.
/// Equal as the compiler's constants are: floats by their bits (`nan` equals itself, `-0.0` is not
/// `0.0`), so that comparing statements (the copies of a block) can neither loop on a NaN nor take
/// `x = -0.0` for a copy of `x = 0.0`.
#[derive(Clone, Debug)]
pub enum Constant {
    None,
    Bool(bool),
    Ellipsis,
    /// An int of any size as its decimal digits, with a leading `-` when negative.
    Int(String),
    Float(f64),
    /// A complex number; source literals have `real == 0.0`, folded constants may not.
    Complex {
        real: f64,
        imag: f64,
    },
    Str(StrValue),
    Bytes(Vec<u8>),
    /// A tuple of constants (code objects hold these; `ast.parse` never gives one).
    Tuple(Vec<Constant>),
    /// A frozenset of constants, printed as `frozenset({...})`.
    FrozenSet(Vec<Constant>),
    /// A reference to a non-literal object, printed as this text (a name or dotted name).
    Opaque(String),
}

impl PartialEq for Constant {
    fn eq(&self, other: &Constant) -> bool {
        use Constant::*;
        match (self, other) {
            (None, None) | (Ellipsis, Ellipsis) => true,
            (Bool(a), Bool(b)) => a == b,
            (Int(a), Int(b)) | (Opaque(a), Opaque(b)) => a == b,
            (Float(a), Float(b)) => a.to_bits() == b.to_bits(),
            (Complex { real, imag }, Complex { real: r2, imag: i2 }) => {
                real.to_bits() == r2.to_bits() && imag.to_bits() == i2.to_bits()
            }
            (Str(a), Str(b)) => a == b,
            (Bytes(a), Bytes(b)) => a == b,
            (Tuple(a), Tuple(b)) | (FrozenSet(a), FrozenSet(b)) => a == b,
            _ => false,
        }
    }
}

impl Constant {
    pub fn str(s: &str) -> Constant {
        Constant::Str(StrValue::new(s))
    }

    pub fn int(i: i64) -> Constant {
        Constant::Int(i.to_string())
    }
}

/// `ast.comprehension`: one `for ... in ... if ...` clause.
#[derive(Clone, Debug, PartialEq)]
pub struct Comprehension {
    pub target: Expr,
    pub iter: Expr,
    pub ifs: Vec<Expr>,
    pub is_async: bool,
    /// Per entry of `ifs` (none: all false): the clause starts a line of its own, as in the original
    /// (a layout fact the compiler's output depends on; see structure/comp_lines.rs).
    pub ifs_apart: Vec<bool>,
    /// On a comprehension's first `for`: the first line of the code object it was decompiled
    /// from, as a lambda's `line`.
    pub line: Option<i32>,
}

/// `ast.arg`.
#[derive(Clone, Debug, PartialEq)]
pub struct Arg {
    pub arg: Identifier,
    pub annotation: Option<Expr>,
}

impl Arg {
    pub fn new(name: &str) -> Arg {
        Arg {
            arg: name.to_string(),
            annotation: None,
        }
    }
}

/// `ast.arguments`. `defaults` belong to the last of `posonlyargs + args`; `kw_defaults` is
/// parallel to `kwonlyargs` (`None` where there is no default). The printer copes with lists of
/// the wrong length (extra defaults are dropped).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Arguments {
    pub posonlyargs: Vec<Arg>,
    pub args: Vec<Arg>,
    pub vararg: Option<Arg>,
    pub kwonlyargs: Vec<Arg>,
    pub kw_defaults: Vec<Option<Expr>>,
    pub kwarg: Option<Arg>,
    pub defaults: Vec<Expr>,
}

/// `ast.keyword`: `arg=value`, or `**value` when `arg` is `None`.
#[derive(Clone, Debug, PartialEq)]
pub struct Keyword {
    pub arg: Option<Identifier>,
    pub value: Expr,
}

/// `ast.alias`: `name as asname` in an import.
#[derive(Clone, Debug, PartialEq)]
pub struct Alias {
    pub name: Identifier,
    pub asname: Option<Identifier>,
}

/// `ast.withitem`.
#[derive(Clone, Debug, PartialEq)]
pub struct WithItem {
    pub context_expr: Expr,
    pub optional_vars: Option<Expr>,
}

/// `ast.match_case`.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchCase {
    pub pattern: Pattern,
    pub guard: Option<Expr>,
    pub body: Body,
}

/// `ast.ExceptHandler` (`type` is spelled `type_`).
#[derive(Clone, Debug, PartialEq)]
pub struct ExceptHandler {
    pub type_: Option<Expr>,
    pub name: Option<Identifier>,
    pub body: Body,
}

/// `ast.type_param` (3.12+; defaults 3.13+).
#[derive(Clone, Debug, PartialEq)]
pub enum TypeParam {
    TypeVar {
        name: Identifier,
        bound: Option<Expr>,
        default_value: Option<Expr>,
    },
    ParamSpec {
        name: Identifier,
        default_value: Option<Expr>,
    },
    TypeVarTuple {
        name: Identifier,
        default_value: Option<Expr>,
    },
}

/// `ast.pattern` (3.10+ `match`).
#[derive(Clone, Debug, PartialEq)]
pub enum Pattern {
    MatchValue {
        value: Expr,
    },
    MatchSingleton {
        value: Constant,
    },
    MatchSequence {
        patterns: Vec<Pattern>,
    },
    MatchMapping {
        keys: Vec<Expr>,
        patterns: Vec<Pattern>,
        rest: Option<Identifier>,
    },
    MatchClass {
        cls: Expr,
        patterns: Vec<Pattern>,
        kwd_attrs: Vec<Identifier>,
        kwd_patterns: Vec<Pattern>,
    },
    MatchStar {
        name: Option<Identifier>,
    },
    MatchAs {
        pattern: Option<Box<Pattern>>,
        name: Option<Identifier>,
    },
    MatchOr {
        patterns: Vec<Pattern>,
    },
}

/// `ast.FunctionDef` / `ast.AsyncFunctionDef` (which one is the [`Stmt`] variant).
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDef {
    pub name: Identifier,
    pub args: Arguments,
    pub body: Body,
    pub decorator_list: Vec<Expr>,
    pub returns: Option<Expr>,
    pub type_params: Vec<TypeParam>,
}

/// `ast.ClassDef`.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassDef {
    pub name: Identifier,
    pub bases: Vec<Expr>,
    pub keywords: Vec<Keyword>,
    pub body: Body,
    pub decorator_list: Vec<Expr>,
    pub type_params: Vec<TypeParam>,
}

/// Statements (`ast.stmt`).
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    FunctionDef(Box<FunctionDef>),
    AsyncFunctionDef(Box<FunctionDef>),
    ClassDef(Box<ClassDef>),
    Return {
        value: Option<Expr>,
    },
    Delete {
        targets: Vec<Expr>,
    },
    Assign {
        targets: Vec<Expr>,
        value: Expr,
    },
    TypeAlias {
        name: Expr,
        type_params: Vec<TypeParam>,
        value: Expr,
    },
    AugAssign {
        target: Expr,
        op: Operator,
        value: Expr,
    },
    AnnAssign {
        target: Expr,
        annotation: Expr,
        value: Option<Expr>,
        /// True for a bare name target written without parentheses.
        simple: bool,
    },
    For {
        target: Expr,
        iter: Expr,
        body: Body,
        orelse: Body,
    },
    AsyncFor {
        target: Expr,
        iter: Expr,
        body: Body,
        orelse: Body,
    },
    While {
        test: Expr,
        body: Body,
        orelse: Body,
    },
    If {
        test: Expr,
        body: Body,
        orelse: Body,
    },
    With {
        items: Vec<WithItem>,
        body: Body,
    },
    AsyncWith {
        items: Vec<WithItem>,
        body: Body,
    },
    Match {
        subject: Expr,
        cases: Vec<MatchCase>,
    },
    Raise {
        exc: Option<Expr>,
        cause: Option<Expr>,
    },
    Try {
        body: Body,
        handlers: Vec<ExceptHandler>,
        orelse: Body,
        finalbody: Body,
    },
    TryStar {
        body: Body,
        handlers: Vec<ExceptHandler>,
        orelse: Body,
        finalbody: Body,
    },
    Assert {
        test: Expr,
        msg: Option<Expr>,
    },
    Import {
        names: Vec<Alias>,
    },
    ImportFrom {
        module: Option<Identifier>,
        names: Vec<Alias>,
        level: u32,
    },
    Global {
        names: Vec<Identifier>,
    },
    Nonlocal {
        names: Vec<Identifier>,
    },
    Expr {
        value: Expr,
    },
    Pass,
    Break,
    Continue,
}

/// Expressions (`ast.expr`).
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    BoolOp {
        op: BoolOp,
        values: Vec<Expr>,
    },
    NamedExpr {
        target: Box<Expr>,
        value: Box<Expr>,
    },
    BinOp {
        left: Box<Expr>,
        op: Operator,
        right: Box<Expr>,
    },
    UnaryOp {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    Lambda {
        args: Box<Arguments>,
        body: Box<Expr>,
        /// The first line of the code object it was decompiled from (none for one made up): two
        /// lambdas alike from code objects of different lines are two constants through 3.10
        /// only where printed on different lines (printer.rs `code_on_own_line`).
        line: Option<i32>,
    },
    IfExp {
        test: Box<Expr>,
        body: Box<Expr>,
        orelse: Box<Expr>,
    },
    /// `keys[i]` is `None` for a `**values[i]` unpacking.
    Dict {
        keys: Vec<Option<Expr>>,
        values: Vec<Expr>,
    },
    Set {
        elts: Vec<Expr>,
    },
    ListComp {
        elt: Box<Expr>,
        generators: Vec<Comprehension>,
    },
    SetComp {
        elt: Box<Expr>,
        generators: Vec<Comprehension>,
    },
    DictComp {
        key: Box<Expr>,
        value: Box<Expr>,
        generators: Vec<Comprehension>,
    },
    GeneratorExp {
        elt: Box<Expr>,
        generators: Vec<Comprehension>,
    },
    Await {
        value: Box<Expr>,
    },
    Yield {
        value: Option<Box<Expr>>,
    },
    YieldFrom {
        value: Box<Expr>,
    },
    Compare {
        left: Box<Expr>,
        ops: Vec<CmpOp>,
        comparators: Vec<Expr>,
    },
    Call {
        func: Box<Expr>,
        args: Vec<Expr>,
        keywords: Vec<Keyword>,
    },
    /// `{value!conversion:format_spec}`; `format_spec` is a `JoinedStr`.
    FormattedValue {
        value: Box<Expr>,
        conversion: Conversion,
        format_spec: Option<Box<Expr>>,
    },
    /// An f-string: `Constant` str parts and `FormattedValue`s.
    JoinedStr {
        values: Vec<Expr>,
    },
    /// A 3.14 t-string: `Constant` str parts and `Interpolation`s.
    TemplateStr {
        values: Vec<Expr>,
    },
    /// A 3.14 t-string field; `str` is the expression's source text as written.
    Interpolation {
        value: Box<Expr>,
        str: String,
        conversion: Conversion,
        format_spec: Option<Box<Expr>>,
    },
    /// `kind` is `Some("u")` for a `u'...'` string, as in `ast`.
    Constant {
        value: Constant,
        kind: Option<String>,
    },
    Attribute {
        value: Box<Expr>,
        attr: Identifier,
        ctx: ExprContext,
    },
    Subscript {
        value: Box<Expr>,
        slice: Box<Expr>,
        ctx: ExprContext,
    },
    Starred {
        value: Box<Expr>,
        ctx: ExprContext,
    },
    Name {
        id: Identifier,
        ctx: ExprContext,
    },
    List {
        elts: Vec<Expr>,
        ctx: ExprContext,
    },
    Tuple {
        elts: Vec<Expr>,
        ctx: ExprContext,
    },
    Slice {
        lower: Option<Box<Expr>>,
        upper: Option<Box<Expr>>,
        step: Option<Box<Expr>>,
    },
}

impl Stmt {
    /// The statement lists directly inside this statement (the bodies of a compound statement;
    /// not those of a nested function or class, which are scopes of their own).
    pub fn bodies_mut(&mut self) -> Vec<&mut Vec<Stmt>> {
        match self {
            Stmt::If { body, orelse, .. }
            | Stmt::For { body, orelse, .. }
            | Stmt::AsyncFor { body, orelse, .. }
            | Stmt::While { body, orelse, .. } => vec![body, orelse],
            Stmt::With { body, .. } | Stmt::AsyncWith { body, .. } => vec![body],
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
            } => {
                let mut out = vec![body];
                out.extend(handlers.iter_mut().map(|h| &mut h.body));
                out.push(orelse);
                out.push(finalbody);
                out
            }
            Stmt::Match { cases, .. } => cases.iter_mut().map(|c| &mut c.body).collect(),
            _ => Vec::new(),
        }
    }
}

impl Expr {
    /// A `Load` name.
    pub fn name(id: &str) -> Expr {
        Expr::Name {
            id: id.to_string(),
            ctx: ExprContext::Load,
        }
    }

    /// A constant without a `kind`.
    pub fn constant(value: Constant) -> Expr {
        Expr::Constant { value, kind: None }
    }
}

#[cfg(test)]
mod tests {
    use super::Constant;

    #[test]
    fn floats_compare_by_bits() {
        assert_eq!(Constant::Float(f64::NAN), Constant::Float(f64::NAN));
        assert_ne!(Constant::Float(0.0), Constant::Float(-0.0));
        let c = |real: f64, imag: f64| Constant::Complex { real, imag };
        assert_ne!(c(0.0, 0.0), c(0.0, -0.0));
        assert_eq!(
            Constant::Tuple(vec![Constant::Float(f64::NAN)]),
            Constant::Tuple(vec![Constant::Float(f64::NAN)])
        );
    }
}
