SIBLING = "sibling value"
