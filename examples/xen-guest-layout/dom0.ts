// A service that runs in a Xen host's dom0 (the control domain). No Xen Orchestra resource
// models dom0 or what runs in it, so this local component only carries perfguard's facts in a
// `tags` list. In a real stack its child would be whatever installs the service in dom0 (for
// example a `command:remote:Command` that runs the installer over SSH); the facts stay here.
//
// A component needs no provider plugin, so the token below works under the real CLI as well as
// under the preview mocks; its registered outputs are what AnalyzeStack sees.

import * as pulumi from "@pulumi/pulumi";

/** perfguard facts about one dom0 service. */
export interface Dom0ServiceArgs {
    /** The host's UUID, spelt as the guests' `affinityHost` (and the policy config's `hosts` keys). */
    host: string;
    /** `management` for the management tools the source allows in dom0; anything else is a workload. */
    role?: string;
    /** What the service sends at its peak, MB/s (transmit). */
    networkMBps?: number;
    /** Other tags (owner, schedule). */
    extraTags?: string[];
}

export class Dom0Service extends pulumi.ComponentResource {
    public static readonly __pulumiType = "perfguard:example:Dom0Service";

    // `declare`: with the repo's ES2022 target a `!` field would be reset after super().
    declare public readonly tags: pulumi.Output<string[]>;

    constructor(name: string, args: Dom0ServiceArgs, opts?: pulumi.ComponentResourceOptions) {
        super(Dom0Service.__pulumiType, name, {}, opts);
        const tags = [
            ...(args.extraTags ?? []),
            // Marks the service as running in dom0: its traffic shares the host's link ahead of the guests.
            "perfguard:xenDomain=dom0",
            `perfguard:xenHost=${args.host}`,
            ...(args.role === undefined ? [] : [`perfguard:xenDom0Role=${args.role}`]),
            ...(args.networkMBps === undefined ? [] : [`perfguard:networkMBps=${args.networkMBps}`]),
        ];
        (this as { tags: pulumi.Output<string[]> }).tags = pulumi.output(tags);
        this.registerOutputs({ tags });
    }
}
