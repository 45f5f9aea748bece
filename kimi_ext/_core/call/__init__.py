"""What a call on a format is made of: the :class:`~.format.Format` object, one per wire
format, request building (:mod:`.building`: arguments in, a checked body out) and the
caller (:mod:`.calling`: the body sent, the reply parsed, the hooks told). The top room: it
joins the others, and none of them imports it."""
