from enum import StrEnum


class PromptCacheOptionsTtl(StrEnum):
    HOUR_1 = "1h"
    MINUTES_5 = "5m"

    def __str__(self) -> str:
        return str(self.value)
