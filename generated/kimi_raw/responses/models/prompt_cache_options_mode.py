from enum import StrEnum


class PromptCacheOptionsMode(StrEnum):
    IMPLICIT = "implicit"

    def __str__(self) -> str:
        return str(self.value)
