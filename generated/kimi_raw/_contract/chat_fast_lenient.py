"""The fast yes/no check of a chat request body in mode 'lenient' of
kimi_ext._core.contract.Closed, written by `make generate` from openapi/chat.yaml
(scripts/derive_fast.py, kimi_ext._core.contract.fast). Do not edit.

build() returns the check of the request: it raises on anything it cannot pass, and the
reference validator then decides.
"""

# ruff: noqa
# mypy: ignore-errors


def build(_compile, Fail, _has_surrogate, _MISSING, _FailingDict, _pattern, _typos):
    _k1 = 'required'
    _k2 = _compile({'anyOf': [{'properties': {'tools': {'minItems': 1}}, 'required': ['tools']}, {'properties': {'messages': {'contains': {'properties': {'role': {'const': 'system'}}, 'required': ['role', 'tools']}}}, 'required': ['messages']}]})
    _k3 = _compile({'dependentSchemas': {'top_logprobs': {'properties': {'logprobs': {'const': True}}, 'required': ['logprobs'], 'x-kimi-error': 'top_logprobs requires logprobs=true'}}})
    _k4 = 1
    _k5 = 1048576
    _k6 = _compile({'anyOf': [{'$ref': '#/$defs/ChatModel'}, {'type': 'string'}]})
    _k7 = _compile({'x-kimi-unique-by': 'function.name'})
    _k8 = 0
    _k9 = 20
    _k10 = 0.95
    _k11 = frozenset(['web_search'])
    _k12 = frozenset(['function', 'type'])
    _k13 = frozenset(['function'])
    _k14 = _pattern('^[a-zA-Z_][a-zA-Z0-9-_]{0,127}$')
    _k15 = _compile({'x-kimi-mfjs': 'tool-parameters'})
    _k16 = frozenset(['description', 'name', 'parameters', 'strict'])
    _k17 = _compile({'not': {}})
    _k18 = frozenset(['name'])
    _k19 = frozenset(['auto', 'none', 'required'])
    _k20 = frozenset(['include_usage'])
    _k21 = frozenset(['json_schema'])
    _k22 = frozenset(['json_schema', 'type'])
    _k23 = _compile({'x-kimi-mfjs': 'output-schema'})
    _k24 = frozenset(['description', 'name', 'schema', 'strict'])
    _k25 = frozenset(['json_object'])
    _k26 = frozenset(['type'])
    _k27 = frozenset(['text'])
    _k28 = frozenset(['high', 'low', 'max', 'medium', 'minimal', 'none', 'xhigh'])
    _k29 = frozenset(['mode', 'ttl'])
    _k30 = frozenset(['1h', '5m'])
    _k31 = frozenset(['implicit'])
    _k32 = frozenset(['content'])
    _k33 = frozenset(['content', 'type'])
    _k34 = frozenset(['text', 'type'])
    _k35 = _compile({'oneOf': [{'$ref': '#/$defs/SystemMessage'}, {'$ref': '#/$defs/DynamicToolsMessage'}]})
    _k36 = lambda v, _c=_k35: _c(v, ())
    _k37 = frozenset(['tool'])
    _k38 = frozenset(['content', 'name', 'role', 'tool_call_id'])
    _k39 = frozenset(['assistant'])
    _k40 = frozenset(['content', 'name', 'partial', 'reasoning_content', 'role', 'tool_calls'])
    _k41 = _typos(frozenset(['content', 'name', 'partial', 'reasoning_content', 'role', 'tool_calls']))
    _k42 = frozenset(['function', 'id', 'type'])
    _k43 = _typos(frozenset(['function', 'id', 'type']))
    _k44 = frozenset(['arguments', 'name'])
    _k45 = _typos(frozenset(['arguments', 'name']))
    _k46 = frozenset(['user'])
    _k47 = frozenset(['content', 'name', 'role'])
    _k48 = frozenset(['video_url'])
    _k49 = frozenset(['type', 'video_url'])
    _k50 = _pattern('^(data:video/(mp4|mpeg|quicktime|x-msvideo|x-flv|webm|x-ms-wmv|3gpp);base64,|ms://)')
    _k51 = frozenset(['url'])
    _k52 = frozenset(['image_url'])
    _k53 = frozenset(['image_url', 'type'])
    _k54 = _pattern('^(data:image/(jpeg|png|gif|webp|bmp|heic|heif);base64,|ms://)')
    _k55 = frozenset(['detail', 'url'])
    def _v_CreateChatCompletionRequest(v):
        if type(v) is dict:
            if 'tool_choice' in v and v['tool_choice'] == _k1:
                _k2(v, ())
            else:
                pass
        _k3(v, ())
        if type(v) not in (dict,): raise Fail
        if 'model' not in v or 'messages' not in v: raise Fail
        p1 = v.get('frequency_penalty', _MISSING)
        if p1 is not _MISSING:
            _v_FixedFrequencyPenalty(p1)
        p1 = v.get('logprobs', _MISSING)
        if p1 is not _MISSING:
            _v_LogprobsFlag(p1)
        p1 = v.get('max_completion_tokens', _MISSING)
        if p1 is not _MISSING:
            _v_MaxCompletionTokens(p1)
        p1 = v.get('max_tokens', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (int,): raise Fail
            if type(p1) in (int, float) and p1 < _k4: raise Fail
            if type(p1) in (int, float) and p1 > _k5: raise Fail
        p1 = v.get('messages', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (list,): raise Fail
            if type(p1) is list and len(p1) < 1: raise Fail
            if type(p1) is list:
                for e3 in p1:
                    _v_ChatMessage(e3)
        p1 = v.get('model', _MISSING)
        if p1 is not _MISSING:
            _k6(p1, ())
        p1 = v.get('n', _MISSING)
        if p1 is not _MISSING:
            _v_FixedN(p1)
        p1 = v.get('prediction', _MISSING)
        if p1 is not _MISSING:
            _v_PredictionContent(p1)
        p1 = v.get('presence_penalty', _MISSING)
        if p1 is not _MISSING:
            _v_FixedPresencePenalty(p1)
        p1 = v.get('prompt_cache_key', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('prompt_cache_options', _MISSING)
        if p1 is not _MISSING:
            _v_PromptCacheOptions(p1)
        p1 = v.get('reasoning_effort', _MISSING)
        if p1 is not _MISSING:
            _v_ReasoningEffort(p1)
        p1 = v.get('response_format', _MISSING)
        if p1 is not _MISSING:
            _v_ResponseFormat(p1)
        p1 = v.get('safety_identifier', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('stop', _MISSING)
        if p1 is not _MISSING:
            _v_StopSequences(p1)
        p1 = v.get('stream', _MISSING)
        if p1 is not _MISSING:
            _v_StreamFlag(p1)
        p1 = v.get('stream_options', _MISSING)
        if p1 is not _MISSING:
            _v_StreamOptions(p1)
        p1 = v.get('temperature', _MISSING)
        if p1 is not _MISSING:
            _v_FixedTemperature(p1)
        p1 = v.get('tool_choice', _MISSING)
        if p1 is not _MISSING:
            _v_ToolChoice(p1)
        p1 = v.get('tools', _MISSING)
        if p1 is not _MISSING:
            _k7(p1, ())
            if type(p1) not in (list,): raise Fail
            if type(p1) is list and len(p1) > 128: raise Fail
            if type(p1) is list:
                for e3 in p1:
                    _v_ChatTool(e3)
        p1 = v.get('top_logprobs', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (int,): raise Fail
            if type(p1) in (int, float) and p1 < _k8: raise Fail
            if type(p1) in (int, float) and p1 > _k9: raise Fail
        p1 = v.get('top_p', _MISSING)
        if p1 is not _MISSING:
            _v_FixedTopP(p1)

    def _v_FixedTopP(v):
        if type(v) not in (int, float): raise Fail
        if type(v) in (int, float) and v < _k10: raise Fail
        if type(v) in (int, float) and v > _k10: raise Fail

    def _v_ChatTool(v):
        if type(v) is dict:
            t1 = v.get('type')
            if type(t1) is not str and t1 is not None: raise Fail
            _tags1[t1](v)
        else: raise Fail

    def _v_WebSearchTool(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v: raise Fail
        p1 = v.get('function', _MISSING)
        if p1 is not _MISSING:
            _v_WebSearchToolFunction(p1)
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k11: raise Fail
        if not v.keys() <= _k12: raise Fail

    def _v_WebSearchToolFunction(v):
        if type(v) not in (dict,): raise Fail
        p1 = v.get('name', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail

    def _v_FunctionTool(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'function' not in v: raise Fail
        p1 = v.get('function', _MISSING)
        if p1 is not _MISSING:
            _v_FunctionDefinition(p1)
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k13: raise Fail
        if not v.keys() <= _k12: raise Fail

    def _v_FunctionDefinition(v):
        if type(v) not in (dict,): raise Fail
        if 'name' not in v: raise Fail
        p1 = v.get('description', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('name', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
            if type(p1) is str and _k14.search(p1) is None: raise Fail
        p1 = v.get('parameters', _MISSING)
        if p1 is not _MISSING:
            _k15(p1, ())
            if type(p1) not in (dict,): raise Fail
        p1 = v.get('strict', _MISSING)
        if p1 is not _MISSING:
            _v_StrictFlag(p1)
        if not v.keys() <= _k16: raise Fail

    def _v_StrictFlag(v):
        if type(v) not in (bool,): raise Fail

    def _v_ToolChoice(v):
        if type(v) in (str,):
            _v_ToolChoiceMode(v)
        elif type(v) is dict:
            _v_NamedToolChoice(v)
        else: raise Fail

    def _v_NamedToolChoice(v):
        _k17(v, ())
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'function' not in v: raise Fail
        p1 = v.get('function', _MISSING)
        if p1 is not _MISSING:
            _v_NamedToolChoiceFunction(p1)
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k13: raise Fail
        if not v.keys() <= _k12: raise Fail

    def _v_NamedToolChoiceFunction(v):
        if type(v) not in (dict,): raise Fail
        if 'name' not in v: raise Fail
        p1 = v.get('name', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        if not v.keys() <= _k18: raise Fail

    def _v_ToolChoiceMode(v):
        pass
        if type(v) is not str or v not in _k19: raise Fail

    def _v_FixedTemperature(v):
        if type(v) not in (int, float): raise Fail
        if type(v) in (int, float) and v < _k4: raise Fail
        if type(v) in (int, float) and v > _k4: raise Fail

    def _v_StreamOptions(v):
        if type(v) not in (dict,): raise Fail
        p1 = v.get('include_usage', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (bool,): raise Fail
        if not v.keys() <= _k20: raise Fail

    def _v_StreamFlag(v):
        if type(v) not in (bool,): raise Fail

    def _v_StopSequences(v):
        if type(v) in (str,):
            pass
            if type(v) is str and len(v) < 1: raise Fail
            if type(v) is str and len(v) > 32: raise Fail
            if type(v) is str and len(v.encode('utf-8', 'replace')) > 32: raise Fail
            if type(v) is str and not v.isascii() and _has_surrogate(v): raise Fail
        elif type(v) in (list,):
            pass
            if type(v) is list and len(v) > 5: raise Fail
            if type(v) is list:
                for e2 in v:
                    if type(e2) not in (str,): raise Fail
                    if type(e2) is str and len(e2) < 1: raise Fail
                    if type(e2) is str and len(e2) > 32: raise Fail
                    if type(e2) is str and len(e2.encode('utf-8', 'replace')) > 32: raise Fail
                    if type(e2) is str and not e2.isascii() and _has_surrogate(e2): raise Fail
        else: raise Fail

    def _v_ResponseFormat(v):
        if type(v) is dict:
            t1 = v.get('type')
            if type(t1) is not str and t1 is not None: raise Fail
            _tags2[t1](v)
        else: raise Fail

    def _v_ResponseFormatJsonSchema(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'json_schema' not in v: raise Fail
        p1 = v.get('json_schema', _MISSING)
        if p1 is not _MISSING:
            _v_JsonSchemaFormat(p1)
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k21: raise Fail
        if not v.keys() <= _k22: raise Fail

    def _v_JsonSchemaFormat(v):
        if type(v) not in (dict,): raise Fail
        if 'name' not in v or 'schema' not in v: raise Fail
        p1 = v.get('description', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('name', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('schema', _MISSING)
        if p1 is not _MISSING:
            _k23(p1, ())
            if type(p1) not in (dict,): raise Fail
        p1 = v.get('strict', _MISSING)
        if p1 is not _MISSING:
            _v_StrictFlag(p1)
        if not v.keys() <= _k24: raise Fail

    def _v_ResponseFormatJsonObject(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v: raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k25: raise Fail
        if not v.keys() <= _k26: raise Fail

    def _v_ResponseFormatText(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v: raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k27: raise Fail
        if not v.keys() <= _k26: raise Fail

    def _v_ReasoningEffort(v):
        pass
        if type(v) is not str or v not in _k28: raise Fail

    def _v_PromptCacheOptions(v):
        if type(v) not in (dict,): raise Fail
        p1 = v.get('mode', _MISSING)
        if p1 is not _MISSING:
            _v_PromptCacheMode(p1)
        p1 = v.get('ttl', _MISSING)
        if p1 is not _MISSING:
            _v_PromptCacheTtl(p1)
        if not v.keys() <= _k29: raise Fail

    def _v_PromptCacheTtl(v):
        pass
        if type(v) is not str or v not in _k30: raise Fail

    def _v_PromptCacheMode(v):
        pass
        if type(v) is not str or v not in _k31: raise Fail

    def _v_FixedPresencePenalty(v):
        if type(v) not in (int, float): raise Fail
        if type(v) in (int, float) and v < _k8: raise Fail
        if type(v) in (int, float) and v > _k8: raise Fail

    def _v_PredictionContent(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'content' not in v: raise Fail
        p1 = v.get('content', _MISSING)
        if p1 is not _MISSING:
            if type(p1) in (str,):
                pass
            elif type(p1) in (list,):
                pass
                if type(p1) is list:
                    for e4 in p1:
                        _v_TextPart(e4)
            else: raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k32: raise Fail
        if not v.keys() <= _k33: raise Fail

    def _v_TextPart(v):
        if type(v) is dict and 'prompt_cache_breakpoint' in v: raise Fail
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'text' not in v: raise Fail
        p1 = v.get('text', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
            if type(p1) is str and len(p1) < 1: raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k27: raise Fail
        if not v.keys() <= _k34: raise Fail

    def _v_FixedN(v):
        if type(v) not in (int,): raise Fail
        if type(v) in (int, float) and v < _k4: raise Fail
        if type(v) in (int, float) and v > _k4: raise Fail

    def _v_ChatMessage(v):
        if type(v) is dict:
            t1 = v.get('role')
            if type(t1) is not str and t1 is not None: raise Fail
            _tags3[t1](v)
        else: raise Fail

    def _v_ToolMessage(v):
        if type(v) not in (dict,): raise Fail
        if 'role' not in v or 'tool_call_id' not in v or 'content' not in v: raise Fail
        p1 = v.get('content', _MISSING)
        if p1 is not _MISSING:
            if type(p1) in (str,):
                pass
            elif type(p1) in (list,):
                pass
                if type(p1) is list:
                    for e4 in p1:
                        _v_TextPart(e4)
            else: raise Fail
        p1 = v.get('name', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('role', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k37: raise Fail
        p1 = v.get('tool_call_id', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        if not v.keys() <= _k38: raise Fail

    def _v_AssistantMessage(v):
        if type(v) is not dict or ('tool_calls' in v):
            pass
        else:
            if type(v) is dict:
                if 'content' not in v: raise Fail
                p2 = v.get('content', _MISSING)
                if p2 is not _MISSING:
                    if type(p2) not in ((str,) + (list,)): raise Fail
        if type(v) not in (dict,): raise Fail
        if 'role' not in v: raise Fail
        p1 = v.get('content', _MISSING)
        if p1 is not _MISSING:
            if type(p1) in (str,):
                pass
                if type(p1) is str and len(p1) < 1: raise Fail
            elif type(p1) in (list,):
                pass
                if type(p1) is list:
                    for e4 in p1:
                        _v_TextPart(e4)
            elif type(p1) in (type(None),):
                if type(p1) not in (type(None),): raise Fail
            else: raise Fail
        p1 = v.get('name', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('partial', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (bool,): raise Fail
        p1 = v.get('reasoning_content', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('role', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k39: raise Fail
        p1 = v.get('tool_calls', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (list,): raise Fail
            if type(p1) is list:
                for e3 in p1:
                    _v_ToolCall(e3)
        if not v.keys() <= _k40: _k41(v, ())

    def _v_ToolCall(v):
        if type(v) not in (dict,): raise Fail
        if 'id' not in v or 'type' not in v or 'function' not in v: raise Fail
        p1 = v.get('function', _MISSING)
        if p1 is not _MISSING:
            _v_ToolCallFunction(p1)
        p1 = v.get('id', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        if not v.keys() <= _k42: _k43(v, ())

    def _v_ToolCallFunction(v):
        if type(v) not in (dict,): raise Fail
        if 'name' not in v or 'arguments' not in v: raise Fail
        p1 = v.get('arguments', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('name', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        if not v.keys() <= _k44: _k45(v, ())

    def _v_UserMessage(v):
        if type(v) not in (dict,): raise Fail
        if 'role' not in v or 'content' not in v: raise Fail
        p1 = v.get('content', _MISSING)
        if p1 is not _MISSING:
            if type(p1) in (str,):
                pass
            elif type(p1) in (list,):
                pass
                if type(p1) is list:
                    for e4 in p1:
                        _v_UserContentPart(e4)
            else: raise Fail
        p1 = v.get('name', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('role', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k46: raise Fail
        if not v.keys() <= _k47: raise Fail

    def _v_UserContentPart(v):
        if type(v) is dict:
            t1 = v.get('type')
            if type(t1) is not str and t1 is not None: raise Fail
            _tags4[t1](v)
        else: raise Fail

    def _v_VideoUrlPart(v):
        if type(v) is dict and 'prompt_cache_breakpoint' in v: raise Fail
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'video_url' not in v: raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k48: raise Fail
        p1 = v.get('video_url', _MISSING)
        if p1 is not _MISSING:
            _v_VideoUrl(p1)
        if not v.keys() <= _k49: raise Fail

    def _v_VideoUrl(v):
        if type(v) not in (dict,): raise Fail
        if 'url' not in v: raise Fail
        p1 = v.get('url', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
            if type(p1) is str and _k50.search(p1) is None: raise Fail
        if not v.keys() <= _k51: raise Fail

    def _v_ImageUrlPart(v):
        if type(v) is dict and 'prompt_cache_breakpoint' in v: raise Fail
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'image_url' not in v: raise Fail
        p1 = v.get('image_url', _MISSING)
        if p1 is not _MISSING:
            _v_ImageUrl(p1)
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k52: raise Fail
        if not v.keys() <= _k53: raise Fail

    def _v_ImageUrl(v):
        if type(v) not in (dict,): raise Fail
        if 'url' not in v: raise Fail
        p1 = v.get('detail', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('url', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
            if type(p1) is str and _k54.search(p1) is None: raise Fail
        if not v.keys() <= _k55: raise Fail

    def _v_MaxCompletionTokens(v):
        if type(v) not in (int,): raise Fail
        if type(v) in (int, float) and v < _k4: raise Fail
        if type(v) in (int, float) and v > _k5: raise Fail

    def _v_LogprobsFlag(v):
        if type(v) not in (bool,): raise Fail

    def _v_FixedFrequencyPenalty(v):
        if type(v) not in (int, float): raise Fail
        if type(v) in (int, float) and v < _k8: raise Fail
        if type(v) in (int, float) and v > _k8: raise Fail

    _tags1 = _FailingDict({'function': _v_FunctionTool, 'web_search': _v_WebSearchTool})
    _tags2 = _FailingDict({'text': _v_ResponseFormatText, 'json_object': _v_ResponseFormatJsonObject, 'json_schema': _v_ResponseFormatJsonSchema})
    _tags3 = _FailingDict({'system': _k36, 'user': _v_UserMessage, 'assistant': _v_AssistantMessage, 'tool': _v_ToolMessage})
    _tags4 = _FailingDict({'text': _v_TextPart, 'image_url': _v_ImageUrlPart, 'video_url': _v_VideoUrlPart})
    return _v_CreateChatCompletionRequest
