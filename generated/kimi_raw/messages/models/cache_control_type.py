from enum import StrEnum


class CacheControlType(StrEnum):
    EPHEMERAL = "ephemeral"

    def __str__(self) -> str:
        return str(self.value)
