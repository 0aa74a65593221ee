#!/usr/bin/env python3
"""Validates JSON files against a JSON Schema (draft 2020-12).

Uses the `jsonschema` module when it is installed (Debian python3-jsonschema);
otherwise a small built-in validator for the keywords docs/schema uses. The
built-in one refuses keywords it does not implement, so it never passes a
schema it cannot check.
Usage: schema_check.py SCHEMA FILE...   (exit 0 valid, 1 invalid)
"""
import json
import os
import re
import sys

KNOWN = {"$schema", "$id", "$defs", "$ref", "title", "description", "type", "required",
         "additionalProperties", "properties", "items", "const", "enum", "minimum", "maximum",
         "pattern", "oneOf", "anyOf"}


class Invalid(Exception):
    pass


def type_ok(value, name):
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or \
            (isinstance(value, float) and value.is_integer())
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, dict)
    raise Invalid("schema uses unknown type %r" % name)


class MiniValidator:
    def __init__(self, schema):
        self.root = schema

    def resolve(self, ref):
        if not ref.startswith("#/"):
            raise Invalid("only local $ref supported: %s" % ref)
        node = self.root
        for part in ref[2:].split("/"):
            node = node[part]
        return node

    def errors(self, value, schema, path="$"):
        try:
            self.check(value, schema, path)
        except Invalid as e:
            return [str(e)]
        return []

    def check(self, value, schema, path):
        if schema is True:
            return
        if schema is False:
            raise Invalid("%s: not allowed" % path)
        unknown = set(schema) - KNOWN
        if unknown:
            raise Invalid("built-in validator does not implement %s" % sorted(unknown))
        if "$ref" in schema:
            self.check(value, self.resolve(schema["$ref"]), path)
        if "type" in schema:
            types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            if not any(type_ok(value, t) for t in types):
                raise Invalid("%s: %r is not of type %s" % (path, value, types))
        if "const" in schema and value != schema["const"]:
            raise Invalid("%s: %r is not %r" % (path, value, schema["const"]))
        if "enum" in schema and value not in schema["enum"]:
            raise Invalid("%s: %r not in %r" % (path, value, schema["enum"]))
        is_num = isinstance(value, (int, float)) and not isinstance(value, bool)
        if "minimum" in schema and is_num and value < schema["minimum"]:
            raise Invalid("%s: %r < minimum %r" % (path, value, schema["minimum"]))
        if "maximum" in schema and is_num and value > schema["maximum"]:
            raise Invalid("%s: %r > maximum %r" % (path, value, schema["maximum"]))
        if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
            raise Invalid("%s: %r does not match %r" % (path, value, schema["pattern"]))
        if "oneOf" in schema:
            ok = [s for s in schema["oneOf"] if not self.errors(value, s, path)]
            if len(ok) != 1:
                raise Invalid("%s: matches %d of oneOf" % (path, len(ok)))
        if "anyOf" in schema:
            if not any(not self.errors(value, s, path) for s in schema["anyOf"]):
                raise Invalid("%s: matches none of anyOf" % path)
        if isinstance(value, dict):
            for key in schema.get("required", []):
                if key not in value:
                    raise Invalid("%s: missing required %r" % (path, key))
            props = schema.get("properties", {})
            for key, v in value.items():
                if key in props:
                    self.check(v, props[key], "%s.%s" % (path, key))
                elif "additionalProperties" in schema:
                    self.check(v, schema["additionalProperties"], "%s.%s" % (path, key))
        if isinstance(value, list) and "items" in schema:
            for i, v in enumerate(value):
                self.check(v, schema["items"], "%s[%d]" % (path, i))


def validator_for(schema):
    try:
        if os.environ.get("NUMAPERF_SCHEMA_BUILTIN"):
            raise ImportError("built-in validator forced")
        import jsonschema  # noqa: F401
        from jsonschema import Draft202012Validator
        Draft202012Validator.check_schema(schema)
        v = Draft202012Validator(schema)
        return "jsonschema", lambda doc: ["%s: %s" % ("/".join(map(str, e.absolute_path)) or "$",
                                                      e.message) for e in v.iter_errors(doc)]
    except ImportError:
        mv = MiniValidator(schema)
        return "built-in", lambda doc: mv.errors(doc, schema)


def main(argv):
    if len(argv) < 3:
        print("usage: schema_check.py SCHEMA FILE...", file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        schema = json.load(f)
    name, validate = validator_for(schema)
    bad = 0
    for path in argv[2:]:
        with open(path) as f:
            doc = json.load(f)
        errors = validate(doc)
        if errors:
            bad += 1
            print("%s: INVALID (%s validator)" % (path, name))
            for e in errors[:10]:
                print("  " + e)
    print("%d of %d files valid (%s validator)" % (len(argv) - 2 - bad, len(argv) - 2, name))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
