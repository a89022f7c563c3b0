//! Placeholder: the AST lands from the `pyast` branch.
