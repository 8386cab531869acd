"""The Tapestry expansion boxes (``TapestryOptions.expansions``): their inventory and rules."""
