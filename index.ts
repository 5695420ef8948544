/**
 * The perfguard policy pack: what `pulumi preview --policy-pack <this folder>` starts. Nothing
 * may print to stdout before the SDK prints the gRPC port.
 */
import { PolicyPack } from "@pulumi/policy";
import { policies } from "./policies";

new PolicyPack("perfguard", { policies });
