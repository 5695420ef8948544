// The Site of examples/citrix-delivery-groups (index.ts) written in Go: the same resources, with
// the same names, inputs and perfguard facts, so that the pack sees what it sees from the
// TypeScript twin (test/real/goTwin.test.ts compares their `Policies:` sections byte for byte).
//
// The Citrix and vSphere packages have no published Go SDK here (the Citrix one is what
// `pulumi package add terraform-provider citrix/citrix` would generate), so each resource is
// registered by its type token with ctx.RegisterResource, as the generated SDK's constructors do:
// the tokens and lowerCamelCase inputs are those of the TypeScript stand-ins (examples/sdk).
package main

import (
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

const (
	zoneType         = "citrix:index/zone:Zone"
	hypervisorType   = "citrix:index/xenserverHypervisor:XenserverHypervisor"
	resourcePoolType = "citrix:index/xenserverHypervisorResourcePool:XenserverHypervisorResourcePool"
	catalogType      = "citrix:index/machineCatalog:MachineCatalog"
	groupType        = "citrix:index/deliveryGroup:DeliveryGroup"
	vmType           = "vsphere:index/virtualMachine:VirtualMachine"
)

// settings are the Terraform variables of the basic example, as Pulumi config with the
// TypeScript twin's defaults, so the example runs without any config set.
type settings struct {
	xenserverUsername            string
	xenserverPassword            pulumi.StringOutput
	xenserverPasswordFormat      string
	domainFqdn                   string
	domainOu                     string
	domainServiceAccount         string
	domainServiceAccountPassword pulumi.StringOutput
	masterImageVm                string
	allowList                    []string
}

func stringOr(ctx *pulumi.Context, key, fallback string) string {
	if v, err := config.Try(ctx, key); err == nil {
		return v
	}
	return fallback
}

func secretOr(ctx *pulumi.Context, key, fallback string) pulumi.StringOutput {
	if v, err := config.TrySecret(ctx, key); err == nil {
		return v
	}
	return pulumi.ToSecret(pulumi.String(fallback)).(pulumi.StringOutput)
}

func readSettings(ctx *pulumi.Context) settings {
	var allowList []string
	if err := config.TryObject(ctx, "allowList", &allowList); err != nil {
		allowList = []string{`CORP\citrix-users`}
	}
	return settings{
		xenserverUsername:            stringOr(ctx, "xenserverUsername", "root"),
		xenserverPassword:            secretOr(ctx, "xenserverPassword", "example-password"),
		xenserverPasswordFormat:      stringOr(ctx, "xenserverPasswordFormat", "PlainText"),
		domainFqdn:                   stringOr(ctx, "domainFqdn", "corp.example.com"),
		domainOu:                     stringOr(ctx, "domainOu", "OU=VDAs,OU=Citrix,DC=corp,DC=example,DC=com"),
		domainServiceAccount:         stringOr(ctx, "domainServiceAccount", "svc-citrix-mcs"),
		domainServiceAccountPassword: secretOr(ctx, "domainServiceAccountPassword", "example-password"),
		masterImageVm:                stringOr(ctx, "xenserverMasterImageVm", "win2022-vda-2411-golden"),
		allowList:                    allowList,
	}
}

// ---------------------------------------------------------------------------------------------
// perfguard facts
// ---------------------------------------------------------------------------------------------

// zoneFacts are a zone's brokering load and latency, recorded in the zone's `metadatas`.
type zoneFacts struct {
	rttMs                  int // RTT in ms between the zone's Delivery Controllers and the Site database
	peakConcurrentLaunches int // concurrent brokering requests at the logon peak
	users                  int // users launched in the zone's logon storm
}

func metadata(name, value string) pulumi.Map {
	return pulumi.Map{"name": pulumi.String(name), "value": pulumi.String(value)}
}

func zoneFactMetadata(f zoneFacts) []pulumi.Input {
	return []pulumi.Input{
		metadata("perfguard:rttMs", fmt.Sprint(f.rttMs)),
		metadata("perfguard:peakConcurrentLaunches", fmt.Sprint(f.peakConcurrentLaunches)),
		metadata("perfguard:users", fmt.Sprint(f.users)),
	}
}

// resource is a registered custom resource: its id is what the other resources refer to.
type resource struct {
	pulumi.CustomResourceState
}

func register(ctx *pulumi.Context, token, name string, inputs pulumi.Map, opts ...pulumi.ResourceOption) (*resource, error) {
	var r resource
	if err := ctx.RegisterResource(token, name, inputs, &r, opts...); err != nil {
		return nil, err
	}
	return &r, nil
}

// ---------------------------------------------------------------------------------------------
// Zones, hosting connections, catalogs
// ---------------------------------------------------------------------------------------------

type zoneParts struct {
	zone, hypervisor, resourcePool *resource
}

func zoneWithHosting(ctx *pulumi.Context, s settings, name, description string, facts zoneFacts) (zoneParts, error) {
	zone, err := register(ctx, zoneType, name+"-zone", pulumi.Map{
		"name":        pulumi.String(name),
		"description": pulumi.String(description),
		"metadatas":   pulumi.Array(append([]pulumi.Input{metadata("owner", "euc-platform")}, zoneFactMetadata(facts)...)),
	})
	if err != nil {
		return zoneParts{}, err
	}
	// A hosting connection lives in the zone whose controllers manage it.
	hypervisor, err := register(ctx, hypervisorType, name+"-xenserver-hypervisor", pulumi.Map{
		"name":           pulumi.String(name + "-xenserver"),
		"zone":           zone.ID(),
		"username":       pulumi.String(s.xenserverUsername),
		"password":       s.xenserverPassword,
		"passwordFormat": pulumi.String(s.xenserverPasswordFormat),
		"addresses":      pulumi.StringArray{pulumi.String("https://xenpool-" + name + ".corp.example.com")},
	}, pulumi.AdditionalSecretOutputs([]string{"password"}))
	if err != nil {
		return zoneParts{}, err
	}
	storage := pulumi.Array{pulumi.Map{"storageName": pulumi.String(name + "-sr-nfs01")}}
	resourcePool, err := register(ctx, resourcePoolType, name+"-xenserver-rp", pulumi.Map{
		"name":                   pulumi.String(name + "-xenserver-rp"),
		"hypervisor":             hypervisor.ID(),
		"networks":               pulumi.StringArray{pulumi.String("VDA-Network")},
		"storages":               storage,
		"temporaryStorages":      storage,
		"useLocalStorageCaching": pulumi.Bool(false),
	})
	if err != nil {
		return zoneParts{}, err
	}
	return zoneParts{zone, hypervisor, resourcePool}, nil
}

// mcsCatalog is an MCS catalog in one zone: its VDAs register with that zone's Delivery Controllers.
func mcsCatalog(ctx *pulumi.Context, s settings, name string, parts zoneParts, machines int, namingScheme string) (*resource, error) {
	return register(ctx, catalogType, name, pulumi.Map{
		"name":             pulumi.String(name),
		"description":      pulumi.String("Multi-session VDAs (" + name + ")"),
		"provisioningType": pulumi.String("MCS"),
		"allocationType":   pulumi.String("Random"),
		"sessionSupport":   pulumi.String("MultiSession"),
		"zone":             parts.zone.ID(),
		"provisioningScheme": pulumi.Map{
			"hypervisor":             parts.hypervisor.ID(),
			"hypervisorResourcePool": parts.resourcePool.ID(),
			"identityType":           pulumi.String("ActiveDirectory"),
			"machineDomainIdentity": pulumi.Map{
				"domain":                 pulumi.String(s.domainFqdn),
				"domainOu":               pulumi.String(s.domainOu),
				"serviceAccount":         pulumi.String(s.domainServiceAccount),
				"serviceAccountPassword": s.domainServiceAccountPassword,
			},
			"xenserverMachineConfig": pulumi.Map{
				"masterImageVm": pulumi.String(s.masterImageVm),
				"cpuCount":      pulumi.Int(8),
				"memoryMb":      pulumi.Int(32768),
			},
			"numberOfTotalMachines": pulumi.Int(machines),
			"machineAccountCreationRules": pulumi.Map{
				"namingScheme":     pulumi.String(namingScheme),
				"namingSchemeType": pulumi.String("Numeric"),
			},
		},
	})
}

type catalogShare struct {
	catalog  *resource
	machines int
}

func deliveryGroup(ctx *pulumi.Context, s settings, name, published string, catalogs []catalogShare, metadatas []pulumi.Input) (*resource, error) {
	associated := pulumi.Array{}
	for _, c := range catalogs {
		associated = append(associated, pulumi.Map{"machineCatalog": c.catalog.ID(), "machineCount": pulumi.Int(c.machines)})
	}
	allow := pulumi.Map{"allowLists": pulumi.ToStringArray(s.allowList)}
	inputs := pulumi.Map{
		"name":                      pulumi.String(name),
		"associatedMachineCatalogs": associated,
		"desktops": pulumi.Array{pulumi.Map{
			"publishedName":         pulumi.String(published),
			"restrictedAccessUsers": allow,
			"enabled":               pulumi.Bool(true),
		}},
		"restrictedAccessUsers": allow,
	}
	if metadatas != nil {
		inputs["metadatas"] = pulumi.Array(metadatas)
	}
	return register(ctx, groupType, name+"-group", inputs)
}

// ---------------------------------------------------------------------------------------------
// Delivery Controllers (vSphere VMs); facts in extraConfig as guestinfo.perfguard.<key>
// ---------------------------------------------------------------------------------------------

// vsphereSite is where a zone's infrastructure VMs run (vSphere managed object ids).
type vsphereSite struct{ resourcePoolID, datastoreID, networkID string }

var vsphereSites = map[string]vsphereSite{
	"primary":   {"resgroup-1001", "datastore-1101", "network-1201"},
	"emea-east": {"resgroup-3001", "datastore-3101", "network-3201"},
	"nordics":   {"resgroup-5001", "datastore-5101", "network-5201"},
	"baltics":   {"resgroup-6001", "datastore-6101", "network-6201"},
}

type controllerSpec struct {
	name string
	zone string // the zone's `name` input (not its id), so the fact is known at preview time
	// HKLM\Software\Citrix\DesktopServer\ThrottledRequestAddressMaxConcurrentTransactions; 0: not set
	throttle int
}

var controllerSpecs = []controllerSpec{
	// Primary zone: 2 ms from the database, no throttle needed.
	{"ddc-primary-01", "primary", 0},
	{"ddc-primary-02", "primary", 0},
	// The satellites: every controller throttled, but together they allow more than was ever
	// measured against one Site database.
	{"ddc-emea-east-01", "emea-east", 12},
	{"ddc-emea-east-02", "emea-east", 12},
	{"ddc-nordics-01", "nordics", 12},
	{"ddc-nordics-02", "nordics", 12},
	{"ddc-baltics-01", "baltics", 8},
	{"ddc-baltics-02", "baltics", 8},
}

func controller(ctx *pulumi.Context, spec controllerSpec) (*resource, error) {
	site, ok := vsphereSites[spec.zone]
	if !ok {
		return nil, fmt.Errorf("no vSphere placement for zone %s", spec.zone)
	}
	extraConfig := pulumi.StringMap{
		// Marks the VM as a Delivery Controller: nothing in the Citrix provider models one.
		"guestinfo.perfguard.citrixRole": pulumi.String("deliveryController"),
		"guestinfo.perfguard.citrixZone": pulumi.String(spec.zone),
	}
	if spec.throttle != 0 {
		// Set in the guest (GPO or image), not by any resource argument, so it is declared here.
		extraConfig["guestinfo.perfguard.throttleMaxConcurrentTransactions"] = pulumi.String(fmt.Sprint(spec.throttle))
	}
	return register(ctx, vmType, spec.name, pulumi.Map{
		"name":           pulumi.String(spec.name),
		"resourcePoolId": pulumi.String(site.resourcePoolID),
		"datastoreId":    pulumi.String(site.datastoreID),
		"numCpus":        pulumi.Int(4),
		"memory":         pulumi.Int(8192),
		"guestId":        pulumi.String("windows2019srvNext_64Guest"),
		"networkInterfaces": pulumi.Array{pulumi.Map{
			"networkId":   pulumi.String(site.networkID),
			"adapterType": pulumi.String("vmxnet3"),
		}},
		"disks": pulumi.Array{pulumi.Map{
			"label":           pulumi.String("disk0"),
			"size":            pulumi.Int(100),
			"thinProvisioned": pulumi.Bool(true),
		}},
		"extraConfig": extraConfig,
	})
}

func site(ctx *pulumi.Context) error {
	s := readSettings(ctx)
	var groups []*resource
	group := func(name, published string, catalogs []catalogShare, metadatas []pulumi.Input) error {
		g, err := deliveryGroup(ctx, s, name, published, catalogs, metadatas)
		if err == nil {
			groups = append(groups, g)
		}
		return err
	}

	// The primary zone, next to the Site database: the baseline, no finding.
	primary, err := zoneWithHosting(ctx, s, "primary", "Primary zone, co-located with the Site database", zoneFacts{2, 60, 20000})
	if err != nil {
		return err
	}
	primaryCatalog, err := mcsCatalog(ctx, s, "primary-catalog", primary, 700, "ctx-pri-####")
	if err != nil {
		return err
	}
	if err := group("primary-desktops", "Corporate Desktop", []catalogShare{{primaryCatalog, 700}}, nil); err != nil {
		return err
	}

	// emea-east, 160 ms: its own desktops group, and half of shared-apps.
	emeaEast, err := zoneWithHosting(ctx, s, "emea-east", "Satellite zone, Warsaw", zoneFacts{160, 16, 3000})
	if err != nil {
		return err
	}
	emeaEastCatalog, err := mcsCatalog(ctx, s, "emea-east-catalog", emeaEast, 120, "ctx-eme-###")
	if err != nil {
		return err
	}
	if err := group("emea-east-desktops", "Corporate Desktop (emea-east)", []catalogShare{{emeaEastCatalog, 120}}, nil); err != nil {
		return err
	}

	// nordics, 160 ms, shared by four departments: each Delivery Group is its own brokering lock.
	nordics, err := zoneWithHosting(ctx, s, "nordics", "Satellite zone, Stockholm", zoneFacts{160, 24, 8000})
	if err != nil {
		return err
	}
	for i, department := range []string{"finance", "hr", "sales", "engineering"} {
		catalog, err := mcsCatalog(ctx, s, "nordics-"+department+"-catalog", nordics, 50, fmt.Sprintf("ctx-nd%d-###", i))
		if err != nil {
			return err
		}
		if err := group("nordics-"+department, "Desktop ("+department+")", []catalogShare{{catalog, 50}}, nil); err != nil {
			return err
		}
	}

	// baltics, 120 ms: one Delivery Group, throttled within what its lock sustains.
	baltics, err := zoneWithHosting(ctx, s, "baltics", "Satellite zone, Riga", zoneFacts{120, 16, 2500})
	if err != nil {
		return err
	}
	balticsCatalog, err := mcsCatalog(ctx, s, "baltics-catalog", baltics, 80, "ctx-bal-###")
	if err != nil {
		return err
	}
	if err := group("baltics-desktops", "Corporate Desktop (baltics)", []catalogShare{{balticsCatalog, 80}}, nil); err != nil {
		return err
	}

	// One Delivery Group whose catalogs sit in both 160 ms zones: one lock, brokered by both
	// zones' controllers.
	sharedEmeaCatalog, err := mcsCatalog(ctx, s, "shared-apps-emea-east-catalog", emeaEast, 40, "ctx-sae-###")
	if err != nil {
		return err
	}
	sharedNordicsCatalog, err := mcsCatalog(ctx, s, "shared-apps-nordics-catalog", nordics, 40, "ctx-san-###")
	if err != nil {
		return err
	}
	if err := group("shared-apps", "Shared apps", []catalogShare{{sharedEmeaCatalog, 40}, {sharedNordicsCatalog, 40}}, []pulumi.Input{
		metadata("perfguard:peakConcurrentLaunches", "48"),
		metadata("perfguard:users", "3000"),
	}); err != nil {
		return err
	}

	var controllerNames pulumi.StringArray
	for _, spec := range controllerSpecs {
		if _, err := controller(ctx, spec); err != nil {
			return err
		}
		controllerNames = append(controllerNames, pulumi.String(spec.name))
	}

	ctx.Export("zoneIds", pulumi.Map{"primary": primary.zone.ID(), "emeaEast": emeaEast.zone.ID(), "nordics": nordics.zone.ID(), "baltics": baltics.zone.ID()})
	groupIDs := pulumi.Array{}
	for _, g := range groups {
		groupIDs = append(groupIDs, g.ID())
	}
	ctx.Export("deliveryGroupIds", groupIDs)
	ctx.Export("deliveryControllers", controllerNames)
	return nil
}

func main() {
	pulumi.Run(site)
}
