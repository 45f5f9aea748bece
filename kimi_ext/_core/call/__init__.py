"""What a call on a format is made of: the :class:`~.format.Format` object, one per wire
format, and request building (:mod:`.building`: arguments in, a checked body out). The top
room: it joins the others, and none of them imports it."""
