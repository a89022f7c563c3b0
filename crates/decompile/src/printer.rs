//! Placeholder: the printer lands from the `pyast` branch.
