"""Package for the relative-import part of the behaviour suite."""

PKG_VALUE = "package value"
