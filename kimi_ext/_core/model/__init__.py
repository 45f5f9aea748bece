"""What a call gives back and what a conversation keeps: the result base class, the history
base class, normalized usage and image parts. Imports only the contract room."""
