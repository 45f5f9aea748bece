from enum import StrEnum


class PromptCacheTtl(StrEnum):
    FIVE_MINUTES = "5m"
    ONE_HOUR = "1h"

    def __str__(self) -> str:
        return str(self.value)
