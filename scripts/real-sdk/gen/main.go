// Command gen writes the Node.js SDK of a Pulumi package schema with the code generator of the
// Pulumi CLI version that the real-CLI tests use (pkg/v3 codegen/nodejs), the code that
// `pulumi package gen-sdk --language nodejs` runs. (The CLI itself delegates gen-sdk to its
// Node.js language host, and the newest host the module proxy serves, built against an older
// pkg/v3, writes wrong relative imports in sub-modules: `./utilities` in config/vars.ts.)
//
//	go run . <schema.json> <out dir>
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gen <schema.json> <out dir>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(schemaFile, outDir string) error {
	data, err := os.ReadFile(schemaFile)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		return fmt.Errorf("%s: %w", schemaFile, err)
	}
	// A schema that refers to no other package needs no plugins: any reference is an error.
	pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return diags
	}
	if err := pkg.ImportLanguages(map[string]schema.Language{"nodejs": nodejs.Importer}); err != nil {
		return err
	}
	files, err := nodejs.GeneratePackage("pulumi-language-nodejs", pkg, nil, nil, false, noPackages{})
	if err != nil {
		return err
	}
	for name, content := range files {
		path := filepath.Join(outDir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// noPackages loads no package: the schemas here are self-contained.
type noPackages struct{}

func (noPackages) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("package %s: the schema refers to another package", pkg)
}

func (noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, fmt.Errorf("package %s: the schema refers to another package", d.Name)
}

func (noPackages) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("package %s: the schema refers to another package", pkg)
}

func (noPackages) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return nil, fmt.Errorf("package %s: the schema refers to another package", d.Name)
}
