from enum import StrEnum


class PromptCacheMode(StrEnum):
    IMPLICIT = "implicit"

    def __str__(self) -> str:
        return str(self.value)
