"""Rise & Fall: the world (``world``, ``worldbuild``, ``tiles``) and the rules (``game``)."""
