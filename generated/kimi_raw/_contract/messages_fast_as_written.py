"""The fast yes/no check of a messages request body in mode None of
kimi_ext._core.contract.Closed, written by `make generate` from openapi/messages.yaml
(scripts/derive_fast.py, kimi_ext._core.contract.fast). Do not edit.

build() returns the check of the request: it raises on anything it cannot pass, and the
reference validator then decides.
"""

# ruff: noqa
# mypy: ignore-errors


def build(_compile, Fail, _has_surrogate, _MISSING, _FailingDict, _pattern, _typos):
    _k1 = _compile({'if': {'properties': {'tool_choice': {'properties': {'type': {'const': 'any'}}, 'required': ['type'], 'type': 'object'}}, 'required': ['tool_choice']}, 'then': {'properties': {'tools': {'minItems': 1}}, 'required': ['tools'], 'x-kimi-error': 'tool_choice any needs at least one tool in tools', 'x-kimi-service-error': '{path}: tool_choice any requires at least one tool in tools'}})
    _k2 = 1
    _k3 = 1048576
    _k4 = _compile({'anyOf': [{'$ref': '#/$defs/CreateMessageRequestModel'}, {'type': 'string'}]})
    _k5 = _pattern('\\S')
    _k6 = _compile({'x-kimi-unique-by': 'name'})
    _k7 = 0.95
    _k8 = _compile({'oneOf': [{'$ref': '#/$defs/WebSearchTool'}, {'$ref': '#/$defs/CustomTool'}]})
    _k9 = _compile({'not': {'properties': {'type': {'const': 'tool'}}, 'required': ['type'], 'x-kimi-error': "forcing one named tool conflicts with Kimi's always-on thinking; use any or auto"}})
    _k10 = frozenset(['any', 'auto', 'none'])
    _k11 = frozenset(['text'])
    _k12 = _compile({'x-kimi-mfjs': 'output-schema'})
    _k13 = frozenset(['json_schema'])
    _k14 = frozenset(['high', 'low', 'max', 'medium', 'minimal', 'none', 'xhigh'])
    _k15 = 'user'
    _k16 = frozenset(['image', 'text', 'tool_result'])
    _k17 = frozenset(['server_tool_use', 'text', 'thinking', 'tool_use', 'web_search_tool_result'])
    _k18 = frozenset(['assistant', 'user'])
    _k20 = _compile({'anyOf': [{'items': {'$ref': '#/$defs/WebSearchResult'}, 'type': 'array'}, {'$ref': '#/$defs/WebSearchToolResultError'}, {'$ref': '#/$defs/UnknownBlock'}]})
    _k22 = frozenset(['web_search_tool_result'])
    _k23 = frozenset(['web_search_tool_result_error'])
    _k24 = frozenset(['server_tool_use'])
    _k25 = frozenset(['tool_result'])
    _k27 = frozenset(['tool_use'])
    _k28 = frozenset(['thinking'])
    _k29 = frozenset(['image'])
    _k30 = frozenset(['url'])
    _k31 = _pattern('^ms://')
    _k32 = frozenset(['image/gif', 'image/jpeg', 'image/png', 'image/webp'])
    _k33 = frozenset(['base64'])
    _k34 = frozenset(['ephemeral'])
    _k35 = frozenset(['1h', '5m'])
    def _v_CreateMessageRequest(v):
        if type(v) is dict and 'tool_choice' in v: _k1(v, ())
        if type(v) not in (dict,): raise Fail
        if 'model' not in v or 'max_tokens' not in v or 'messages' not in v: raise Fail
        p1 = v.get('cache_control', _MISSING)
        if p1 is not _MISSING:
            _v_CacheControl(p1)
        p1 = v.get('max_tokens', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (int,): raise Fail
            if type(p1) in (int, float) and p1 < _k2: raise Fail
            if type(p1) in (int, float) and p1 > _k3: raise Fail
        p1 = v.get('messages', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (list,): raise Fail
            if type(p1) is list and len(p1) < 1: raise Fail
            if type(p1) is list:
                for e3 in p1:
                    _v_MessageParam(e3)
        p1 = v.get('metadata', _MISSING)
        if p1 is not _MISSING:
            _v_RequestMetadata(p1)
        p1 = v.get('model', _MISSING)
        if p1 is not _MISSING:
            _k4(p1, ())
        p1 = v.get('output_config', _MISSING)
        if p1 is not _MISSING:
            _v_OutputConfig(p1)
        p1 = v.get('stop_sequences', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (list,): raise Fail
            if type(p1) is list and len(p1) > 5: raise Fail
            if type(p1) is list:
                for e3 in p1:
                    if type(e3) not in (str,): raise Fail
                    if type(e3) is str and len(e3) < 1: raise Fail
                    if type(e3) is str and len(e3) > 32: raise Fail
                    if type(e3) is str and len(e3.encode('utf-8', 'replace')) > 32: raise Fail
                    if type(e3) is str and not e3.isascii() and _has_surrogate(e3): raise Fail
        p1 = v.get('stream', _MISSING)
        if p1 is not _MISSING:
            _v_StreamFlag(p1)
        p1 = v.get('system', _MISSING)
        if p1 is not _MISSING:
            if type(p1) in (str,):
                pass
            elif type(p1) in (list,):
                pass
                if type(p1) is list:
                    for e4 in p1:
                        _v_TextBlock(e4)
                        if type(e4) is dict:
                            p6 = e4.get('text', _MISSING)
                            if p6 is not _MISSING:
                                if type(p6) is str and _k5.search(p6) is None: raise Fail
            else: raise Fail
        p1 = v.get('temperature', _MISSING)
        if p1 is not _MISSING:
            _v_FixedTemperature(p1)
        p1 = v.get('tool_choice', _MISSING)
        if p1 is not _MISSING:
            _v_ToolChoice(p1)
        p1 = v.get('tools', _MISSING)
        if p1 is not _MISSING:
            _k6(p1, ())
            if type(p1) not in (list,): raise Fail
            if type(p1) is list:
                for e3 in p1:
                    _v_ToolDefinition(e3)
        p1 = v.get('top_p', _MISSING)
        if p1 is not _MISSING:
            _v_FixedTopP(p1)

    def _v_FixedTopP(v):
        if type(v) not in (int, float): raise Fail
        if type(v) in (int, float) and v < _k7: raise Fail
        if type(v) in (int, float) and v > _k7: raise Fail

    def _v_ToolDefinition(v):
        _k8(v, ())

    def _v_ToolChoice(v):
        _k9(v, ())
        if type(v) not in (dict,): raise Fail
        if 'type' not in v: raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            _v_ToolChoiceType(p1)

    def _v_ToolChoiceType(v):
        pass
        if type(v) is not str or v not in _k10: raise Fail

    def _v_FixedTemperature(v):
        if type(v) not in (int, float): raise Fail
        if type(v) in (int, float) and v < _k2: raise Fail
        if type(v) in (int, float) and v > _k2: raise Fail

    def _v_TextBlock(v):
        if type(v) is dict and 'prompt_cache_breakpoint' in v: raise Fail
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'text' not in v: raise Fail
        p1 = v.get('text', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k11: raise Fail

    def _v_StreamFlag(v):
        if type(v) not in (bool,): raise Fail

    def _v_OutputConfig(v):
        if type(v) not in (dict,): raise Fail
        p1 = v.get('effort', _MISSING)
        if p1 is not _MISSING:
            _v_OutputConfigEffort(p1)
        p1 = v.get('format', _MISSING)
        if p1 is not _MISSING:
            _v_OutputFormat(p1)

    def _v_OutputFormat(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'schema' not in v: raise Fail
        p1 = v.get('schema', _MISSING)
        if p1 is not _MISSING:
            _k12(p1, ())
            if type(p1) not in (dict,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k13: raise Fail

    def _v_OutputConfigEffort(v):
        pass
        if type(v) is not str or v not in _k14: raise Fail

    def _v_RequestMetadata(v):
        if type(v) not in (dict,): raise Fail
        p1 = v.get('user_id', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail

    def _v_MessageParam(v):
        if type(v) is dict:
            if 'role' in v and v['role'] == _k15:
                if type(v) is dict:
                    p2 = v.get('content', _MISSING)
                    if p2 is not _MISSING:
                        if type(p2) is list:
                            for e4 in p2:
                                if type(e4) is dict:
                                    p6 = e4.get('type', _MISSING)
                                    if p6 is not _MISSING:
                                        if type(p6) is not str or p6 not in _k16: raise Fail
            else:
                if type(v) is dict:
                    p2 = v.get('content', _MISSING)
                    if p2 is not _MISSING:
                        if type(p2) is list:
                            for e4 in p2:
                                if type(e4) is dict:
                                    p6 = e4.get('type', _MISSING)
                                    if p6 is not _MISSING:
                                        if type(p6) is not str or p6 not in _k17: raise Fail
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
                        _v_ContentBlockParam(e4)
            else: raise Fail
        p1 = v.get('role', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k18: raise Fail

    def _v_ContentBlockParam(v):
        if type(v) is dict:
            t1 = v.get('type')
            if type(t1) is not str and t1 is not None: raise Fail
            _tags1[t1](v)
        else: raise Fail

    def _v_WebSearchToolResultBlock(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'tool_use_id' not in v or 'content' not in v: raise Fail
        p1 = v.get('content', _MISSING)
        if p1 is not _MISSING:
            if type(p1) in (list,):
                pass
                if type(p1) is list:
                    for e4 in p1:
                        _v_WebSearchResult(e4)
            elif type(p1) is dict:
                t3 = p1.get('type')
                f3 = _k21.get(t3) if type(t3) is str else None
                if f3 is None: _k20(p1, ())
                else: f3(p1)
            else: _k20(p1, ())
        p1 = v.get('tool_use_id', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k22: raise Fail

    def _v_WebSearchResult(v):
        if type(v) not in (dict,): raise Fail
        p1 = v.get('encrypted_content', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('page_age', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in ((str,) + (type(None),)): raise Fail
        p1 = v.get('title', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('url', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail

    def _v_WebSearchToolResultError(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v: raise Fail
        p1 = v.get('error_code', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k23: raise Fail

    def _v_ServerToolUseBlock(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'id' not in v or 'name' not in v or 'input' not in v: raise Fail
        p1 = v.get('id', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('input', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (dict,): raise Fail
        p1 = v.get('name', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k24: raise Fail

    def _v_ToolResultBlock(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'tool_use_id' not in v or 'content' not in v: raise Fail
        p1 = v.get('content', _MISSING)
        if p1 is not _MISSING:
            if type(p1) in (str,):
                pass
            elif type(p1) in (list,):
                pass
                if type(p1) is list:
                    for e4 in p1:
                        _v_ToolResultContentBlock(e4)
            else: raise Fail
        p1 = v.get('is_error', _MISSING)
        if p1 is not _MISSING:
            _v_ToolResultErrorFlag(p1)
        p1 = v.get('tool_use_id', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k25: raise Fail

    def _v_ToolResultErrorFlag(v):
        if type(v) not in (bool,): raise Fail

    def _v_ToolResultContentBlock(v):
        if type(v) is dict:
            t1 = v.get('type')
            if type(t1) is not str and t1 is not None: raise Fail
            _tags2[t1](v)
        else: raise Fail

    def _v_ToolUseBlock(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'id' not in v or 'name' not in v or 'input' not in v: raise Fail
        p1 = v.get('id', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('input', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (dict,): raise Fail
        p1 = v.get('name', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k27: raise Fail

    def _v_ThinkingBlock(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'thinking' not in v: raise Fail
        p1 = v.get('signature', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('thinking', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k28: raise Fail

    def _v_ImageBlock(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'source' not in v: raise Fail
        p1 = v.get('source', _MISSING)
        if p1 is not _MISSING:
            _v_ImageSource(p1)
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k29: raise Fail

    def _v_ImageSource(v):
        if type(v) is dict:
            t1 = v.get('type')
            if type(t1) is not str and t1 is not None: raise Fail
            _tags3[t1](v)
        else: raise Fail

    def _v_UrlImageSource(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'url' not in v: raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k30: raise Fail
        p1 = v.get('url', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
            if type(p1) is str and _k31.search(p1) is None: raise Fail

    def _v_Base64ImageSource(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'media_type' not in v or 'data' not in v: raise Fail
        p1 = v.get('data', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('media_type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k32: raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k33: raise Fail

    def _v_CacheControl(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v: raise Fail
        p1 = v.get('ttl', _MISSING)
        if p1 is not _MISSING:
            _v_CacheControlTtl(p1)
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k34: raise Fail

    def _v_CacheControlTtl(v):
        pass
        if type(v) is not str or v not in _k35: raise Fail

    def _m26(v):
        _v_TextBlock(v)
        if type(v) is dict:
            p1 = v.get('text', _MISSING)
            if p1 is not _MISSING:
                if type(p1) is str and _k5.search(p1) is None: raise Fail

    def _m19(v):
        _v_TextBlock(v)
        if type(v) is dict:
            p1 = v.get('text', _MISSING)
            if p1 is not _MISSING:
                if type(p1) is str and _k5.search(p1) is None: raise Fail

    _tags1 = _FailingDict({'text': _m19, 'image': _v_ImageBlock, 'thinking': _v_ThinkingBlock, 'tool_use': _v_ToolUseBlock, 'tool_result': _v_ToolResultBlock, 'server_tool_use': _v_ServerToolUseBlock, 'web_search_tool_result': _v_WebSearchToolResultBlock})
    _tags2 = _FailingDict({'text': _m26, 'image': _v_ImageBlock})
    _tags3 = _FailingDict({'base64': _v_Base64ImageSource, 'url': _v_UrlImageSource})
    _k21 = {'web_search_tool_result_error': _v_WebSearchToolResultError}
    return _v_CreateMessageRequest
