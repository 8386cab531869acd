"""Bot games at scale: worker processes and batched commits into the store."""
