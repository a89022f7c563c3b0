//! Placeholder: the real codec lands from the `tables` branch.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExceptionTableEntry {
    pub start: u32,
    pub end: u32,
    pub target: u32,
    pub depth: u32,
    pub lasti: bool,
}

#[derive(Debug)]
pub struct ExceptionTableError(pub String);
impl std::fmt::Display for ExceptionTableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for ExceptionTableError {}

pub fn decode_exception_table(
    _table: &[u8],
) -> Result<Vec<ExceptionTableEntry>, ExceptionTableError> {
    Ok(Vec::new())
}

pub fn encode_exception_table(_entries: &[ExceptionTableEntry]) -> Vec<u8> {
    Vec::new()
}
