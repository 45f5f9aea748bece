"""The fast yes/no check of a responses request body in mode 'lenient' of
kimi_ext._core.contract.Closed, written by `make generate` from openapi/responses.yaml
(scripts/derive_fast.py, kimi_ext._core.contract.fast). Do not edit.

build() returns the check of the request: it raises on anything it cannot pass, and the
reference validator then decides.
"""

# ruff: noqa
# mypy: ignore-errors


def build(_compile, Fail, _has_surrogate, _MISSING, _FailingDict, _pattern, _typos):
    _k1 = _compile({'if': {'properties': {'tool_choice': {'anyOf': [{'const': 'required'}, {'properties': {'type': {'const': 'required'}}, 'required': ['type'], 'type': 'object'}]}}, 'required': ['tool_choice']}, 'then': {'properties': {'tools': {'minItems': 1}}, 'required': ['tools'], 'x-kimi-error': 'tool_choice required needs at least one tool in tools', 'x-kimi-service-error': "tool_choice 'required' requires at least one tool in tools"}})
    _k2 = _compile({'anyOf': [{'$ref': '#/$defs/CreateResponseRequestModel'}, {'type': 'string'}]})
    _k3 = _compile({'x-kimi-unique-by': 'name'})
    _k4 = frozenset(['web_search'])
    _k5 = frozenset(['type'])
    _k6 = frozenset(['apply_patch'])
    _k7 = frozenset(['custom'])
    _k8 = frozenset(['description', 'format', 'name', 'type'])
    _k9 = frozenset(['definition', 'syntax', 'type'])
    _k10 = frozenset(['namespace'])
    _k11 = frozenset(['description', 'name', 'tools', 'type'])
    _k12 = _pattern('^[a-zA-Z_][a-zA-Z0-9-_]{0,127}$')
    _k13 = _compile({'x-kimi-mfjs': 'tool-parameters'})
    _k14 = frozenset(['function'])
    _k15 = frozenset(['description', 'name', 'parameters', 'strict', 'type'])
    _k16 = _compile({'not': {'properties': {'type': {'enum': ['function', 'custom']}}, 'required': ['type'], 'x-kimi-error': "forcing one named tool conflicts with Kimi's always-on thinking; use required or auto", 'x-kimi-service-error': "tool_choice 'specified' is incompatible with thinking enabled"}})
    _k17 = frozenset(['auto', 'custom', 'function', 'none', 'required', 'web_search'])
    _k18 = frozenset(['name', 'type'])
    _k19 = frozenset(['auto', 'none', 'required'])
    _k20 = frozenset(['format'])
    _k21 = _compile({'x-kimi-mfjs': 'output-schema'})
    _k22 = frozenset(['json_schema'])
    _k23 = frozenset(['description', 'name', 'schema', 'strict', 'type'])
    _k24 = frozenset(['text'])
    _k25 = frozenset(['auto', 'concise', 'detailed'])
    _k26 = frozenset(['effort', 'summary'])
    _k27 = frozenset(['high', 'low', 'max', 'medium', 'minimal', 'none', 'xhigh'])
    _k28 = frozenset(['implicit'])
    _k29 = frozenset(['mode', 'ttl'])
    _k30 = frozenset(['1h', '5m'])
    _k31 = 1
    _k32 = 1048576
    _k33 = frozenset(['web_search_call'])
    _k34 = frozenset(['action', 'id', 'results', 'status', 'type'])
    _k35 = _typos(frozenset(['action', 'id', 'results', 'status', 'type']))
    _k36 = frozenset(['query', 'sources', 'type'])
    _k37 = _typos(frozenset(['query', 'sources', 'type']))
    _k38 = frozenset(['custom_tool_call_output'])
    _k39 = frozenset(['call_id', 'id', 'output', 'type'])
    _k40 = frozenset(['auto', 'high', 'low'])
    _k41 = _pattern('^(data:image/(jpeg|png|gif|webp|bmp|heic|heif);base64,|ms://)')
    _k42 = frozenset(['input_image'])
    _k43 = frozenset(['detail', 'file_id', 'image_url', 'type'])
    _k44 = frozenset(['input_text'])
    _k45 = frozenset(['text', 'type'])
    _k46 = frozenset(['custom_tool_call'])
    _k47 = frozenset(['call_id', 'id', 'input', 'name', 'status', 'type'])
    _k48 = _typos(frozenset(['call_id', 'id', 'input', 'name', 'status', 'type']))
    _k49 = frozenset(['function_call_output'])
    _k50 = frozenset(['call_id', 'id', 'output', 'status', 'type'])
    _k51 = frozenset(['function_call'])
    _k52 = frozenset(['arguments', 'call_id', 'id', 'name', 'namespace', 'status', 'type'])
    _k53 = _typos(frozenset(['arguments', 'call_id', 'id', 'name', 'namespace', 'status', 'type']))
    _k54 = frozenset(['reasoning'])
    _k55 = frozenset(['content', 'encrypted_content', 'id', 'status', 'summary', 'type'])
    _k56 = _typos(frozenset(['content', 'encrypted_content', 'id', 'status', 'summary', 'type']))
    _k57 = _compile({'anyOf': [{'$ref': '#/$defs/SummaryTextPart'}, {'$ref': '#/$defs/UnknownPart'}]})
    _k59 = frozenset(['summary_text'])
    _k60 = _typos(frozenset(['text', 'type']))
    _k61 = _compile({'anyOf': [{'$ref': '#/$defs/ReasoningTextPart'}, {'$ref': '#/$defs/UnknownPart'}]})
    _k63 = frozenset(['reasoning_text'])
    _k64 = frozenset(['assistant', 'developer', 'system', 'user'])
    _k65 = frozenset(['message'])
    _k66 = frozenset(['content', 'id', 'role', 'status', 'type'])
    _k67 = frozenset(['refusal'])
    _k68 = frozenset(['refusal', 'type'])
    _k69 = _typos(frozenset(['refusal', 'type']))
    _k70 = frozenset(['output_text'])
    _k71 = frozenset(['annotations', 'logprobs', 'text', 'type'])
    _k72 = _typos(frozenset(['annotations', 'logprobs', 'text', 'type']))
    _k73 = _compile({'anyOf': [{'$ref': '#/$defs/UrlCitationAnnotation'}, {'$ref': '#/$defs/UnknownAnnotation'}]})
    _k75 = frozenset(['url_citation'])
    _k76 = frozenset(['end_index', 'start_index', 'title', 'type', 'url'])
    _k77 = _typos(frozenset(['end_index', 'start_index', 'title', 'type', 'url']))
    _k78 = frozenset(['web_search_call.action.sources', 'web_search_call.results'])
    def _v_CreateResponseRequest(v):
        if type(v) is dict and 'tool_choice' in v: _k1(v, ())
        if type(v) not in (dict,): raise Fail
        if 'model' not in v or 'input' not in v: raise Fail
        p1 = v.get('include', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (list,): raise Fail
            if type(p1) is list:
                for e3 in p1:
                    _v_IncludeValue(e3)
        p1 = v.get('input', _MISSING)
        if p1 is not _MISSING:
            if type(p1) in (str,):
                pass
            elif type(p1) in (list,):
                pass
                if type(p1) is list and len(p1) < 1: raise Fail
                if type(p1) is list:
                    for e4 in p1:
                        _v_InputItem(e4)
            else: raise Fail
        p1 = v.get('instructions', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('max_output_tokens', _MISSING)
        if p1 is not _MISSING:
            _v_MaxOutputTokens(p1)
        p1 = v.get('model', _MISSING)
        if p1 is not _MISSING:
            _k2(p1, ())
        p1 = v.get('prompt_cache_key', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('prompt_cache_options', _MISSING)
        if p1 is not _MISSING:
            _v_PromptCacheOptions(p1)
        p1 = v.get('reasoning', _MISSING)
        if p1 is not _MISSING:
            _v_ReasoningConfig(p1)
        p1 = v.get('safety_identifier', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('stream', _MISSING)
        if p1 is not _MISSING:
            _v_StreamFlag(p1)
        p1 = v.get('text', _MISSING)
        if p1 is not _MISSING:
            _v_TextConfig(p1)
        p1 = v.get('tool_choice', _MISSING)
        if p1 is not _MISSING:
            if type(p1) in (str,):
                _v_ToolChoiceMode(p1)
            elif type(p1) is dict:
                _v_ToolChoiceObject(p1)
            else: raise Fail
        p1 = v.get('tools', _MISSING)
        if p1 is not _MISSING:
            _k3(p1, ())
            if type(p1) not in (list,): raise Fail
            if type(p1) is list:
                for e3 in p1:
                    _v_RequestTool(e3)

    def _v_RequestTool(v):
        if type(v) is dict:
            t1 = v.get('type')
            if type(t1) is not str and t1 is not None: raise Fail
            _tags1[t1](v)
        else: raise Fail

    def _v_WebSearchTool(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v: raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k4: raise Fail
        if not v.keys() <= _k5: raise Fail

    def _v_ApplyPatchTool(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'name' not in v: raise Fail
        p1 = v.get('description', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('format', _MISSING)
        if p1 is not _MISSING:
            _v_CustomToolFormat(p1)
        p1 = v.get('name', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k6: raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k7: raise Fail
        if not v.keys() <= _k8: raise Fail

    def _v_CustomToolFormat(v):
        if type(v) not in (dict,): raise Fail
        p1 = v.get('definition', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('syntax', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        if not v.keys() <= _k9: raise Fail

    def _v_NamespaceTool(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'name' not in v or 'tools' not in v: raise Fail
        p1 = v.get('description', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('name', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('tools', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (list,): raise Fail
            if type(p1) is list:
                for e3 in p1:
                    _v_FunctionTool(e3)
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k10: raise Fail
        if not v.keys() <= _k11: raise Fail

    def _v_FunctionTool(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'name' not in v: raise Fail
        p1 = v.get('description', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('name', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
            if type(p1) is str and _k12.search(p1) is None: raise Fail
        p1 = v.get('parameters', _MISSING)
        if p1 is not _MISSING:
            _k13(p1, ())
            if type(p1) not in (dict,): raise Fail
        p1 = v.get('strict', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (bool,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k14: raise Fail
        if not v.keys() <= _k15: raise Fail

    def _v_ToolChoiceObject(v):
        _k16(v, ())
        if type(v) not in (dict,): raise Fail
        if 'type' not in v: raise Fail
        p1 = v.get('name', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k17: raise Fail
        if not v.keys() <= _k18: raise Fail

    def _v_ToolChoiceMode(v):
        pass
        if type(v) is not str or v not in _k19: raise Fail

    def _v_TextConfig(v):
        if type(v) not in (dict,): raise Fail
        p1 = v.get('format', _MISSING)
        if p1 is not _MISSING:
            _v_TextFormat(p1)
        if not v.keys() <= _k20: raise Fail

    def _v_TextFormat(v):
        if type(v) is dict:
            t1 = v.get('type')
            if type(t1) is not str and t1 is not None: raise Fail
            _tags2[t1](v)
        else: raise Fail

    def _v_TextFormatJsonSchema(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'schema' not in v: raise Fail
        p1 = v.get('description', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('name', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('schema', _MISSING)
        if p1 is not _MISSING:
            _k21(p1, ())
            if type(p1) not in (dict,): raise Fail
        p1 = v.get('strict', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (bool,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k22: raise Fail
        if not v.keys() <= _k23: raise Fail

    def _v_TextFormatText(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v: raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k24: raise Fail
        if not v.keys() <= _k5: raise Fail

    def _v_StreamFlag(v):
        if type(v) not in (bool,): raise Fail

    def _v_ReasoningConfig(v):
        if type(v) not in (dict,): raise Fail
        p1 = v.get('effort', _MISSING)
        if p1 is not _MISSING:
            _v_ReasoningConfigEffort(p1)
        p1 = v.get('summary', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k25: raise Fail
        if not v.keys() <= _k26: raise Fail

    def _v_ReasoningConfigEffort(v):
        pass
        if type(v) is not str or v not in _k27: raise Fail

    def _v_PromptCacheOptions(v):
        if type(v) not in (dict,): raise Fail
        p1 = v.get('mode', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k28: raise Fail
        p1 = v.get('ttl', _MISSING)
        if p1 is not _MISSING:
            _v_PromptCacheOptionsTtl(p1)
        if not v.keys() <= _k29: raise Fail

    def _v_PromptCacheOptionsTtl(v):
        pass
        if type(v) is not str or v not in _k30: raise Fail

    def _v_MaxOutputTokens(v):
        if type(v) not in (int,): raise Fail
        if type(v) in (int, float) and v < _k31: raise Fail
        if type(v) in (int, float) and v > _k32: raise Fail

    def _v_InputItem(v):
        if type(v) is dict:
            t1 = v.get('type')
            if type(t1) is not str and t1 is not None: raise Fail
            _tags3[t1](v)
        else: raise Fail

    def _v_WebSearchCallItem(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v: raise Fail
        p1 = v.get('action', _MISSING)
        if p1 is not _MISSING:
            _v_WebSearchAction(p1)
        p1 = v.get('id', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('results', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (list,): raise Fail
            if type(p1) is list:
                for e3 in p1:
                    if type(e3) not in (dict,): raise Fail
        p1 = v.get('status', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k33: raise Fail
        if not v.keys() <= _k34: _k35(v, ())

    def _v_WebSearchAction(v):
        if type(v) not in (dict,): raise Fail
        p1 = v.get('query', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('sources', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (list,): raise Fail
            if type(p1) is list:
                for e3 in p1:
                    if type(e3) not in (dict,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        if not v.keys() <= _k36: _k37(v, ())

    def _v_CustomToolCallOutputItem(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'call_id' not in v or 'output' not in v: raise Fail
        p1 = v.get('call_id', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('id', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('output', _MISSING)
        if p1 is not _MISSING:
            if type(p1) in (str,):
                pass
            elif type(p1) in (list,):
                pass
                if type(p1) is list:
                    for e4 in p1:
                        _v_ToolOutputPart(e4)
            else: raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k38: raise Fail
        if not v.keys() <= _k39: raise Fail

    def _v_ToolOutputPart(v):
        if type(v) is dict:
            t1 = v.get('type')
            if type(t1) is not str and t1 is not None: raise Fail
            _tags4[t1](v)
        else: raise Fail

    def _v_InputImagePart(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v: raise Fail
        p1 = v.get('detail', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k40: raise Fail
        p1 = v.get('file_id', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('image_url', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
            if type(p1) is str and _k41.search(p1) is None: raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k42: raise Fail
        if not v.keys() <= _k43: raise Fail

    def _v_InputTextPart(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'text' not in v: raise Fail
        p1 = v.get('text', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k44: raise Fail
        if not v.keys() <= _k45: raise Fail

    def _v_CustomToolCallItem(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'call_id' not in v or 'name' not in v or 'input' not in v: raise Fail
        p1 = v.get('call_id', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('id', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('input', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('name', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('status', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k46: raise Fail
        if not v.keys() <= _k47: _k48(v, ())

    def _v_FunctionCallOutputItem(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'call_id' not in v or 'output' not in v: raise Fail
        p1 = v.get('call_id', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('id', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('output', _MISSING)
        if p1 is not _MISSING:
            if type(p1) in (str,):
                pass
            elif type(p1) in (list,):
                pass
                if type(p1) is list:
                    for e4 in p1:
                        _v_ToolOutputPart(e4)
            else: raise Fail
        p1 = v.get('status', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k49: raise Fail
        if not v.keys() <= _k50: raise Fail

    def _v_FunctionCallItem(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'call_id' not in v or 'name' not in v or 'arguments' not in v: raise Fail
        p1 = v.get('arguments', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('call_id', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('id', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('name', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('namespace', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('status', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k51: raise Fail
        if not v.keys() <= _k52: _k53(v, ())

    def _v_ReasoningItem(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v: raise Fail
        p1 = v.get('content', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (list,): raise Fail
            if type(p1) is list:
                for e3 in p1:
                    _v_ReasoningContentPart(e3)
        p1 = v.get('encrypted_content', _MISSING)
        if p1 is not _MISSING:
            if type(p1) in (str,):
                pass
            elif type(p1) in (type(None),):
                if type(p1) not in (type(None),): raise Fail
            else: raise Fail
        p1 = v.get('id', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('status', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('summary', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (list,): raise Fail
            if type(p1) is list:
                for e3 in p1:
                    _v_ReasoningSummaryPart(e3)
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k54: raise Fail
        if not v.keys() <= _k55: _k56(v, ())

    def _v_ReasoningSummaryPart(v):
        if type(v) is dict:
            t1 = v.get('type')
            f1 = _k58.get(t1) if type(t1) is str else None
            if f1 is None: _k57(v, ())
            else: f1(v)
        else: _k57(v, ())

    def _v_SummaryTextPart(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'text' not in v: raise Fail
        p1 = v.get('text', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k59: raise Fail
        if not v.keys() <= _k45: _k60(v, ())

    def _v_ReasoningContentPart(v):
        if type(v) is dict:
            t1 = v.get('type')
            f1 = _k62.get(t1) if type(t1) is str else None
            if f1 is None: _k61(v, ())
            else: f1(v)
        else: _k61(v, ())

    def _v_ReasoningTextPart(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'text' not in v: raise Fail
        p1 = v.get('text', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k63: raise Fail
        if not v.keys() <= _k45: _k60(v, ())

    def _v_InputMessage(v):
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
                        _v_InputContentPart(e4)
            else: raise Fail
        p1 = v.get('id', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('role', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k64: raise Fail
        p1 = v.get('status', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k65: raise Fail
        if not v.keys() <= _k66: raise Fail

    def _v_InputContentPart(v):
        if type(v) is dict:
            t1 = v.get('type')
            if type(t1) is not str and t1 is not None: raise Fail
            _tags5[t1](v)
        else: raise Fail

    def _v_RefusalPart(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'refusal' not in v: raise Fail
        p1 = v.get('refusal', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k67: raise Fail
        if not v.keys() <= _k68: _k69(v, ())

    def _v_OutputTextPart(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v or 'text' not in v: raise Fail
        p1 = v.get('annotations', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (list,): raise Fail
            if type(p1) is list:
                for e3 in p1:
                    _v_Annotation(e3)
        p1 = v.get('logprobs', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (list,): raise Fail
            if type(p1) is list:
                for e3 in p1:
                    if type(e3) not in (dict,): raise Fail
        p1 = v.get('text', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k70: raise Fail
        if not v.keys() <= _k71: _k72(v, ())

    def _v_Annotation(v):
        if type(v) is dict:
            t1 = v.get('type')
            f1 = _k74.get(t1) if type(t1) is str else None
            if f1 is None: _k73(v, ())
            else: f1(v)
        else: _k73(v, ())

    def _v_UrlCitationAnnotation(v):
        if type(v) not in (dict,): raise Fail
        if 'type' not in v: raise Fail
        p1 = v.get('end_index', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (int,): raise Fail
        p1 = v.get('start_index', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (int,): raise Fail
        p1 = v.get('title', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        p1 = v.get('type', _MISSING)
        if p1 is not _MISSING:
            pass
            if type(p1) is not str or p1 not in _k75: raise Fail
        p1 = v.get('url', _MISSING)
        if p1 is not _MISSING:
            if type(p1) not in (str,): raise Fail
        if not v.keys() <= _k76: _k77(v, ())

    def _v_IncludeValue(v):
        pass
        if type(v) is not str or v not in _k78: raise Fail

    _tags1 = _FailingDict({'function': _v_FunctionTool, 'namespace': _v_NamespaceTool, 'custom': _v_ApplyPatchTool, 'web_search': _v_WebSearchTool})
    _tags2 = _FailingDict({'text': _v_TextFormatText, 'json_schema': _v_TextFormatJsonSchema})
    _tags3 = _FailingDict({'message': _v_InputMessage, None: _v_InputMessage, 'reasoning': _v_ReasoningItem, 'function_call': _v_FunctionCallItem, 'function_call_output': _v_FunctionCallOutputItem, 'custom_tool_call': _v_CustomToolCallItem, 'custom_tool_call_output': _v_CustomToolCallOutputItem, 'web_search_call': _v_WebSearchCallItem})
    _tags4 = _FailingDict({'input_text': _v_InputTextPart, 'input_image': _v_InputImagePart})
    _tags5 = _FailingDict({'input_text': _v_InputTextPart, 'input_image': _v_InputImagePart, 'output_text': _v_OutputTextPart, 'refusal': _v_RefusalPart})
    _k58 = {'summary_text': _v_SummaryTextPart}
    _k62 = {'reasoning_text': _v_ReasoningTextPart}
    _k74 = {'url_citation': _v_UrlCitationAnnotation}
    return _v_CreateResponseRequest
