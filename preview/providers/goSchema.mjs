// The Go side of extract-schema.mjs: a small brace-aware reader of Go composite literals, the
// Terraform schema attributes it finds in them (plugin SDKv2 `map[string]*schema.Schema` and
// plugin-framework `schema.Schema{Attributes: ...}`), and Pulumi's names for them as the Terraform
// bridge derives them. Pure functions of the source text: no file, no git, no output.

// ---------------------------------------------------------------------------------------------
// A small brace-aware reader of Go composite literals.
// ---------------------------------------------------------------------------------------------

/** The source with comments blanked and brackets inside string literals blanked (same length). */
export function mask(src) {
    const out = src.split("");
    let i = 0;
    while (i < src.length) {
        const c = src[i];
        if (c === "/" && src[i + 1] === "/") {
            while (i < src.length && src[i] !== "\n") out[i++] = " ";
        } else if (c === "/" && src[i + 1] === "*") {
            const end = src.indexOf("*/", i + 2);
            for (; i < end + 2; i++) if (src[i] !== "\n") out[i] = " ";
        } else if (c === '"' || c === "`") {
            i++;
            while (i < src.length && src[i] !== c) {
                if (c === '"' && src[i] === "\\") {
                    out[i] = " ";
                    out[i + 1] = " ";
                    i += 2;
                    continue;
                }
                if ("{}()[],:".includes(src[i])) out[i] = " ";
                i++;
            }
            i++;
        } else {
            i++;
        }
    }
    return out.join("");
}

/** Index of the bracket closing the one at `open` in masked text. */
function closing(m, open) {
    let depth = 0;
    for (let i = open; i < m.length; i++) {
        if ("{([".includes(m[i])) depth++;
        else if ("})]".includes(m[i])) {
            depth--;
            if (depth === 0) return i;
        }
    }
    throw new Error("unbalanced");
}

/** The entries `"key": expr` of the map literal whose `{` is at `open`: [{ key, start, end }]. */
export function entries(m, open) {
    const close = closing(m, open);
    const list = [];
    const re = /"([A-Za-z0-9_]+)"\s*:\s*/y;
    let i = open + 1;
    while (i < close) {
        while (i < close && /[\s,]/.test(m[i])) i++;
        if (i >= close) break;
        re.lastIndex = i;
        const k = re.exec(m);
        if (!k) {
            // not a string key: skip to the next top-level comma
            let depth = 0;
            while (i < close && !(depth === 0 && m[i] === ",")) {
                if ("{([".includes(m[i])) depth++;
                else if ("})]".includes(m[i])) depth--;
                i++;
            }
            continue;
        }
        const start = re.lastIndex;
        let j = start,
            depth = 0;
        while (j < close && !(depth === 0 && m[j] === ",")) {
            if ("{([".includes(m[j])) depth++;
            else if ("})]".includes(m[j])) depth--;
            j++;
        }
        list.push({ key: k[1], start, end: j });
        i = j + 1;
    }
    return list;
}

/** The `Field: value` pairs directly inside the first `{` of an expression (nested literals skipped). */
export function fields(src, m, start, end) {
    const open = m.indexOf("{", start);
    const head = src.slice(start, open >= 0 && open < end ? open : end).trim();
    const out = { __head: head };
    if (open < 0 || open >= end) return out;
    const close = closing(m, open);
    let i = open + 1;
    const re = /([A-Z][A-Za-z]*)\s*:\s*/y;
    while (i < close) {
        while (i < close && /[\s,]/.test(m[i])) i++;
        re.lastIndex = i;
        const f = re.exec(m);
        let j = f ? re.lastIndex : i,
            depth = 0;
        const vStart = j;
        while (j < close && !(depth === 0 && m[j] === ",")) {
            if ("{([".includes(m[j])) depth++;
            else if ("})]".includes(m[j])) depth--;
            j++;
        }
        if (f) out[f[1]] = { text: src.slice(vStart, j).trim(), start: vStart, end: j };
        i = j + 1;
    }
    return out;
}

/**
 * Defaults given by a named constant or an SDK enum, resolved by hand: value and where it was read.
 * (citrixorchestration is github.com/citrix/citrix-daas-rest-go, not mirrored: the provider's own
 * docs/resources/*.md state the value.)
 */
const RESOLVED = {
    netDefaultDesc: ["Created with Xen Orchestra", "xoa/resource_xenorchestra_network.go: var netDefaultDesc"],
    "types.SetValueMust(types.StringType, []attr.Value{})": [[], "an empty set of strings"],
    "string(citrixorchestration.LOADBALANCETYPE_NONE)": ["None", "docs/resources/delivery_group.md: Defaults to `None`"],
    "client.CloneTypeFastClone": ["fast", "docs/resources/vm.md: defaults to `fast`"],
    "client.RunningPowerState": ["Running", 'github.com/vatesfr/xenorchestra-go-sdk client: RunningPowerState string = "Running"'],
    "string(citrixorchestration.MACHINEACCOUNTDELETEOPTION_NONE)": ["None", "docs/resources/machine_catalog.md: Defaults to `None`"],
};

/** A Go default expression as JSON, or `{ unresolved: text }`. */
export function goValue(text) {
    const t = text.trim();
    if (t in RESOLVED) return RESOLVED[t][0];
    const call = /^[a-z0-9]+default\.Static[A-Za-z0-9]+\((.*)\)$/s.exec(t);
    if (call) return goValue(call[1]);
    if (/^".*"$/s.test(t)) return JSON.parse(t);
    if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
    if (t === "true" || t === "false") return t === "true";
    return { unresolved: t };
}

// ---------------------------------------------------------------------------------------------
// Pulumi naming as the Terraform bridge does it (pkg/tfbridge names.go): snake_case to
// lowerCamelCase; a list or set that is not a single nested block (MaxItems 1) is pluralised.
// ---------------------------------------------------------------------------------------------

function camel(name) {
    return name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
}
function plural(name) {
    // The bridge's inflector: remote_pc_ous -> remotePcOuses (the dynamic bridge's citrix schema).
    if (/ous$/.test(name)) return name + "es";
    if (/s$/.test(name)) return name;
    if (/[^aeiou]y$/.test(name)) return name.slice(0, -1) + "ies";
    if (/(x|ch|sh|z)$/.test(name)) return name + "es";
    return name + "s";
}

function attribute(tfName, kind, flags) {
    const listy = kind === "list" || kind === "set";
    const a = { tf: tfName, pulumi: camel(listy ? plural(tfName) : tfName), kind };
    if (flags.required) a.required = true;
    if (flags.optional) a.optional = true;
    if (flags.computed) a.computed = true;
    if (flags.default !== undefined) a.default = flags.default;
    return a;
}

/** SDKv2: the top-level attributes of the map literal returned after `anchor` in `src`. */
export function sdkv2Attributes(src, anchor, warn, lookup) {
    const m = mask(src);
    const at = m.indexOf(anchor);
    if (at < 0) throw new Error(`anchor not found: ${anchor}`);
    const open = m.indexOf("map[string]*schema.Schema{", at) + "map[string]*schema.Schema".length;
    return entries(m, open).map(({ key, start, end }) => {
        let f = fields(src, m, start, end);
        const call = /^([A-Za-z0-9_]+)\(\)$/.exec(f.__head);
        if (call && lookup) {
            // an attribute built by a helper returning &schema.Schema{...}
            const body = lookup(`func ${call[1]}()`);
            const bm = mask(body);
            const ret = bm.indexOf("return ", bm.indexOf(`func ${call[1]}()`)) + "return ".length;
            f = fields(body, bm, ret, closing(bm, bm.indexOf("{", ret)) + 1);
        }
        const type = (f.Type?.text ?? "").replace("schema.Type", "").toLowerCase();
        let kind = type === "list" || type === "set" ? type : type === "map" ? "map" : type;
        if ((kind === "list" || kind === "set") && f.MaxItems?.text === "1") kind = "object";
        const flags = {
            required: f.Required?.text === "true",
            optional: f.Optional?.text === "true",
            computed: f.Computed?.text === "true",
        };
        if (f.Default) {
            flags.default = goValue(f.Default.text);
            if (flags.default?.unresolved) warn(`${key}: default ${flags.default.unresolved}`);
        }
        if (!kind) warn(`${key}: no Type (${f.__head})`);
        return attribute(key, kind, flags);
    });
}

const PF_KINDS = {
    StringAttribute: "string",
    BoolAttribute: "bool",
    Int64Attribute: "int",
    Int32Attribute: "int",
    Float64Attribute: "float",
    NumberAttribute: "float",
    ListAttribute: "list",
    ListNestedAttribute: "list",
    SetAttribute: "set",
    SetNestedAttribute: "set",
    MapAttribute: "map",
    MapNestedAttribute: "map",
    SingleNestedAttribute: "object",
    ObjectAttribute: "object",
};

/**
 * Plugin framework: the top-level attributes of `Attributes: map[string]schema.Attribute{...}`
 * after `anchor`. An attribute given by a function call (`util.GetMetadataListSchema("Zone")`) is
 * resolved by reading that function's returned literal in `lookup(funcName)`.
 */
export function pfAttributes(src, anchor, lookup, warn) {
    const m = mask(src);
    const at = m.indexOf(anchor);
    if (at < 0) throw new Error(`anchor not found: ${anchor}`);
    const key = "Attributes: map[string]schema.Attribute";
    const open = m.indexOf("{", m.indexOf(key, at) + key.length);
    return entries(m, open).map(({ key: name, start, end }) => {
        let s = src,
            mm = m,
            st = start,
            en = end;
        // An attribute built by a function or a model's GetSchema* method: follow the returns.
        for (let hop = 0; hop < 4; hop++) {
            const text = s.slice(st, en).trim();
            const method = /^(?:[A-Za-z0-9_]+\.)?([A-Za-z0-9_]+)\{\}\.([A-Za-z]+)\(.*\)$/s.exec(text);
            const call = /^([A-Za-z0-9_.]+)\(/.exec(text);
            if (!method && !call) break;
            const sig = method ? `func (${method[1]}) ${method[2]}(` : `func ${call[1].split(".").pop()}(`;
            const body = lookup(sig);
            const bm = mask(body);
            const ret = bm.indexOf("return ", bm.indexOf(sig)) + "return ".length;
            // The returned expression ends at the first line break outside brackets.
            let e = ret,
                depth = 0;
            while (e < bm.length && !(depth === 0 && bm[e] === "\n")) {
                if ("{([".includes(bm[e])) depth++;
                else if ("})]".includes(bm[e])) depth--;
                e++;
            }
            s = body;
            mm = bm;
            st = ret;
            en = e;
        }
        const f = fields(s, mm, st, en);
        const kind = PF_KINDS[f.__head.replace(/^schema\./, "")];
        if (!kind) warn(`${name}: unknown attribute kind ${f.__head}`);
        const flags = {
            required: f.Required?.text === "true",
            optional: f.Optional?.text === "true",
            computed: f.Computed?.text === "true",
        };
        if (f.Default) {
            flags.default = goValue(f.Default.text);
            if (flags.default?.unresolved) warn(`${name}: default ${flags.default.unresolved}`);
        }
        return attribute(name, kind ?? "unknown", flags);
    });
}

export function autonamingOf(resourcesGo) {
    const m = /SetAutonaming\((\d+),\s*"([^"]*)"\)/.exec(resourcesGo);
    return m ? { property: "name", maxLength: Number(m[1]), separator: m[2] } : undefined;
}
