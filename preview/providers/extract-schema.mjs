#!/usr/bin/env node
// Regenerates preview/providers/schema/<package>.json from the real providers' sources, as mirrored
// by the session's `fetch` tool under /work/.mirror (or MIRROR=<dir>). It reads the Go schema
// definitions (Terraform plugin SDKv2 `map[string]*schema.Schema` literals and plugin-framework
// `schema.Schema{Attributes: ...}` literals) and the bridged Pulumi schema.json where the
// provider has one, and writes data only: per resource token, each top-level attribute's
// Pulumi name, Terraform name, kind, and its required/optional/computed flags and default.
// No provider code is copied; the JSON names the repository, commit and files it came from.
//
// The Go literal reader and the bridge's naming are in goSchema.mjs.
//
// Usage: node preview/providers/extract-schema.mjs   (writes the four files, prints checks)
import { execFileSync } from "node:child_process";
import { writeFileSync, mkdirSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { autonamingOf, entries, fields, goValue, mask, pfAttributes, sdkv2Attributes } from "./goSchema.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const MIRROR = process.env.MIRROR ?? "/work/.mirror";

function git(repo, ...args) {
    return execFileSync("git", ["-C", path.join(MIRROR, repo.replace("/", "+"), "repo"), ...args], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
}
const show = (repo, rev, file) => git(repo, "show", `${rev}:${file}`);
const commitOf = (repo, rev) => git(repo, "rev-parse", `${rev}^{commit}`).trim();

function write(pkg, data) {
    const dir = path.join(here, "schema");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${pkg}.json`), JSON.stringify(data, null, 2) + "\n");
    console.log(`wrote schema/${pkg}.json: ${Object.keys(data.resources).length} resources`);
}

function resourceEntry(file, attributes) {
    return { file, attributes: Object.fromEntries(attributes.map((a) => [a.pulumi, a])) };
}

// ---------------------------------------------------------------------------------------------
// avi: vmware/terraform-provider-avi (SDKv2)
// ---------------------------------------------------------------------------------------------
{
    const repo = "vmware/terraform-provider-avi",
        rev = "HEAD";
    const resources = {};
    const list = [
        ["avi:index/serviceenginegroup:Serviceenginegroup", "avi/resource_avi_serviceenginegroup.go", "func ResourceServiceEngineGroupSchema()"],
        ["avi:index/virtualservice:Virtualservice", "avi/resource_avi_virtualservice.go", "func ResourceVirtualServiceSchema()"],
        ["avi:index/vsvip:Vsvip", "avi/resource_avi_vsvip.go", "func ResourceVsVipSchema()"],
        ["avi:index/pool:Pool", "avi/resource_avi_pool.go", "func ResourcePoolSchema()"],
        ["avi:index/healthmonitor:Healthmonitor", "avi/resource_avi_healthmonitor.go", "func ResourceHealthMonitorSchema()"],
        // The certificate a VS names in sslKeyAndCertificateRefs: its keyParams give the key type.
        ["avi:index/sslkeyandcertificate:Sslkeyandcertificate", "avi/resource_avi_sslkeyandcertificate.go", "func ResourceSSLKeyAndCertificateSchema()"],
    ];
    for (const [token, file, anchor] of list) {
        resources[token] = resourceEntry(
            file,
            sdkv2Attributes(show(repo, rev, file), anchor, (w) => console.warn(`avi ${token}: ${w}`)),
        );
        // The resources declare an `id` attribute; the bridge renames it `<resource>Id` (Pulumi's own
        // `id` is the resource id): serviceenginegroupId in the dynamic bridge's avi schema.
        const idName = `${token.split(":").pop().toLowerCase()}Id`;
        resources[token].attributes[idName] = { tf: "id", pulumi: idName, kind: "string", optional: true, computed: true };
    }
    // Left unset, the controller stores false (a controller's ServiceEngineGroup export shows
    // "dedicated_dispatcher_core": false; Avi's module docs: "interpreted by Avi Controller as
    // False"); the provider keeps its string form.
    resources["avi:index/serviceenginegroup:Serviceenginegroup"].attributes.dedicatedDispatcherCore.createdUnset = "false";
    write("avi", {
        package: "avi",
        source: {
            repository: `github.com/${repo}`,
            commit: commitOf(repo, rev),
            describe: git(repo, "describe", "--tags", rev).trim(),
            form: "Terraform plugin SDKv2 schema (Go); Pulumi names as the Terraform bridge derives them",
        },
        bridge: "sdkv2",
        resources,
    });
}

// ---------------------------------------------------------------------------------------------
// xenorchestra: vatesfr/terraform-provider-xenorchestra v0.37.3 (SDKv2), the version that
// vatesfr/pulumi-xenorchestra v2.4.0 (the npm package @vates/pulumi-xenorchestra 2.4.0) bridges
// (its provider/go.mod); names checked against that release's schema.json.
// ---------------------------------------------------------------------------------------------
{
    const repo = "vatesfr/terraform-provider-xenorchestra",
        rev = "v0.37.3";
    const pulumiRepo = "vatesfr/pulumi-xenorchestra",
        pulumiRev = "v2.4.0";
    const pschema = JSON.parse(show(pulumiRepo, pulumiRev, "provider/cmd/pulumi-resource-xenorchestra/schema.json"));
    const resources = {};
    const list = [
        ["xenorchestra:index/vm:Vm", "xoa/resource_xenorchestra_vm.go", "func resourceVmSchema()"],
        ["xenorchestra:index/xoaNetwork:XoaNetwork", "xoa/resource_xenorchestra_network.go", "func resourceXoaNetwork()"],
    ];
    for (const [token, file, anchor] of list) {
        const warn = (w) => console.warn(`xenorchestra ${token}: ${w}`);
        const lookup = (sig) => {
            const hit = git(repo, "grep", "-l", "-F", sig, rev, "--", "*.go").split("\n").filter(Boolean)[0];
            return show(repo, rev, hit.slice(rev.length + 1));
        };
        const attrs = sdkv2Attributes(show(repo, rev, file), anchor, warn, lookup);
        const inputs = Object.keys(pschema.resources[token]?.inputProperties ?? {});
        for (const a of attrs) {
            if (a.tf !== "id" && !inputs.includes(a.pulumi) && !Object.keys(pschema.resources[token].properties).includes(a.pulumi)) {
                warn(`${a.tf} -> ${a.pulumi} is not a property in schema.json`);
            }
        }
        resources[token] = resourceEntry(file, attrs);
    }
    const autonaming = autonamingOf(show(pulumiRepo, pulumiRev, "provider/resources.go"));
    write("xenorchestra", {
        package: "xenorchestra",
        autonaming: autonaming && { ...autonaming, source: `github.com/${pulumiRepo} ${pulumiRev} provider/resources.go` },
        version: pschema.version ?? "2.4.0",
        source: {
            repository: `github.com/${repo}`,
            commit: commitOf(repo, rev),
            describe: rev,
            names: `github.com/${pulumiRepo} ${pulumiRev} (${commitOf(pulumiRepo, pulumiRev)}) provider/cmd/pulumi-resource-xenorchestra/schema.json`,
            form: "Terraform plugin SDKv2 schema (Go); Pulumi names as the Terraform bridge derives them",
        },
        bridge: "sdkv2",
        resources,
    });
}

// ---------------------------------------------------------------------------------------------
// citrix: citrix/terraform-provider-citrix v1.0.38 (plugin framework)
// ---------------------------------------------------------------------------------------------
{
    const repo = "citrix/terraform-provider-citrix",
        rev = "v1.0.38";
    const goFiles = git(repo, "ls-tree", "-r", "--name-only", rev)
        .split("\n")
        .filter((f) => f.endsWith(".go") && !f.endsWith("_test.go"));
    const funcCache = new Map();
    const lookup = (sig) => {
        if (!funcCache.has(sig)) {
            const hits = git(repo, "grep", "-l", "-F", sig, rev, "--", "*.go").split("\n").filter(Boolean);
            if (hits.length !== 1) throw new Error(`citrix: ${sig} found in ${hits.length} files`);
            funcCache.set(sig, show(repo, rev, hits[0].slice(rev.length + 1)));
        }
        return funcCache.get(sig);
    };
    void goFiles;
    const resources = {};
    const list = [
        ["citrix:index/zone:Zone", "internal/daas/zone/zone_resource_model.go", "func (ZoneResourceModel) GetSchema()"],
        [
            "citrix:index/machineCatalog:MachineCatalog",
            "internal/daas/machine_catalog/machine_catalog_resource_model.go",
            "func (MachineCatalogResourceModel) GetSchema()",
        ],
        [
            "citrix:index/deliveryGroup:DeliveryGroup",
            "internal/daas/delivery_group/delivery_group_resource_model.go",
            "func (DeliveryGroupResourceModel) GetSchema()",
        ],
        [
            "citrix:index/xenserverHypervisor:XenserverHypervisor",
            "internal/daas/hypervisor/xenserver_hypervisor_resource_model.go",
            "func (XenserverHypervisorResourceModel) GetSchema()",
        ],
        [
            "citrix:index/xenserverHypervisorResourcePool:XenserverHypervisorResourcePool",
            "internal/daas/hypervisor_resource_pool/xenserver_hypervisor_resource_pool_resource_model.go",
            "func (XenserverHypervisorResourcePoolResourceModel) GetSchema()",
        ],
    ];
    for (const [token, file, anchor] of list) {
        resources[token] = resourceEntry(
            file,
            pfAttributes(show(repo, rev, file), anchor, lookup, (w) => console.warn(`citrix ${token}: ${w}`)),
        );
    }
    // An on-premises zone has no resource location: RefreshPropertyValues stores StringNull
    // (internal/daas/zone/zone_resource_model.go), not a made-up id.
    resources["citrix:index/zone:Zone"].attributes.resourceLocationId.createdUnset = null;
    write("citrix", {
        package: "citrix",
        source: {
            repository: `github.com/${repo}`,
            commit: commitOf(repo, rev),
            describe: rev,
            form: "Terraform plugin framework schema (Go); Pulumi names as the Terraform bridge derives them",
        },
        bridge: "pf",
        resources,
    });
}

// ---------------------------------------------------------------------------------------------
// vsphere: pulumi/pulumi-vsphere's bridged schema.json (names, and computed: an output the
// schema lists as required that is not a required input is Optional+Computed or Computed in
// Terraform), defaults from the upstream Go it bridges (its `upstream` submodule commit).
// ---------------------------------------------------------------------------------------------
{
    const prepo = "pulumi/pulumi-vsphere",
        prev = "HEAD";
    const pschema = JSON.parse(show(prepo, prev, "provider/cmd/pulumi-resource-vsphere/schema.json"));
    const upstreamCommit = git(prepo, "ls-tree", prev, "upstream").split(/\s+/)[2];
    const trepo = "vmware/terraform-provider-vsphere";
    let trev = upstreamCommit;
    try {
        commitOf(trepo, trev);
    } catch {
        trev = "HEAD";
    }
    const vmFiles = git(trepo, "ls-tree", "-r", "--name-only", trev)
        .split("\n")
        .filter(
            (f) =>
                /^vsphere\/(resource_vsphere_virtual_machine\.go|internal\/helper\/virtualmachine\/.*\.go|internal\/virtualdevice\/virtual_machine_(disk|network_interface|cdrom)_subresource\.go|internal\/helper\/vappcontainer|virtual_machine_config_structure\.go|virtual_machine_.*structure.*\.go)/.test(
                    f,
                ) && !f.endsWith("_test.go"),
        );
    // Defaults of top-level scalar attributes: every SDKv2 schema map in those files, by key.
    const defaults = new Map();
    for (const file of vmFiles) {
        const src = show(trepo, trev, file);
        const m = mask(src);
        let at = 0;
        for (;;) {
            at = m.indexOf("map[string]*schema.Schema{", at);
            if (at < 0) break;
            const open = at + "map[string]*schema.Schema".length;
            for (const { key, start, end } of entries(m, open)) {
                const f = fields(src, m, start, end);
                if (f.Default && !defaults.has(key)) defaults.set(key, { value: goValue(f.Default.text), file });
            }
            at = open;
        }
    }
    const resources = {};
    for (const token of ["vsphere:index/virtualMachine:VirtualMachine"]) {
        const r = pschema.resources[token];
        const required = new Set(r.required ?? []),
            requiredInputs = new Set(r.requiredInputs ?? []);
        const attrs = [];
        const snake = (n) => n.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());
        for (const [name, p] of Object.entries(r.properties)) {
            const input = name in (r.inputProperties ?? {});
            const kind = p.type === "array" ? "list" : p.type === "object" ? "map" : (p.type ?? "object");
            const a = { tf: snake(name), pulumi: name, kind };
            if (requiredInputs.has(name)) a.required = true;
            else if (input) a.optional = true;
            if (required.has(name) && !requiredInputs.has(name)) a.computed = true;
            const d = kind !== "list" ? defaults.get(a.tf) : undefined;
            if (d && input && !d.value?.unresolved) a.default = d.value;
            attrs.push(a);
        }
        resources[token] = { file: "provider/cmd/pulumi-resource-vsphere/schema.json", attributes: Object.fromEntries(attrs.map((a) => [a.pulumi, a])) };
    }
    // The bridge's autonaming (ProviderInfo.SetAutonaming(maxLength, separator) in resources.go):
    // Check fills an unset top-level `name` with `<resource name><separator><7 random hex>`.
    const autonaming = autonamingOf(show(prepo, prev, "provider/resources.go"));
    write("vsphere", {
        package: "vsphere",
        version: pschema.version,
        autonaming: autonaming && { ...autonaming, source: `github.com/${prepo} provider/resources.go` },
        source: {
            repository: `github.com/${prepo}`,
            commit: commitOf(prepo, prev),
            describe: git(prepo, "describe", "--tags", prev).trim(),
            defaults: `github.com/${trepo} ${commitOf(trepo, trev)} (${trev === "HEAD" ? "HEAD" : "pulumi-vsphere's upstream submodule"}): ${vmFiles.join(", ")}`,
            form: "bridged Pulumi schema.json (names, computed); Terraform plugin SDKv2 Go (defaults)",
        },
        bridge: "sdkv2",
        resources,
    });
}
