package main

import (
	"crypto/sha256"
	"debug/buildinfo"
	"fmt"
	"os"
	"runtime/debug"
	"time"

	cdx "github.com/CycloneDX/cyclonedx-go"
)

// writeSBOM writes at dst the CycloneDX (JSON) bill of materials of the
// binary bin built for t: the Go toolchain and every module inside it, with
// their versions and go.sum hashes, read from the module information the
// toolchain wrote into the binary (what `go version -m` prints).
func writeSBOM(dst, bin, version string, t target, src source) error {
	info, err := buildinfo.ReadFile(bin)
	if err != nil {
		return fmt.Errorf("read the module information of %s: %w", bin, err)
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	bom := sbomOf(info, version, t, src, sha256.Sum256(data))
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	if err := cdx.NewBOMEncoder(f, cdx.BOMFileFormatJSON).SetPretty(true).EncodeVersion(bom, cdx.SpecVersion1_6); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// sbomOf builds the bill of materials of a binary from its module
// information; sum is the binary's SHA-256, which also names the BOM (its
// serial number), so the same binary always has the same BOM.
func sbomOf(info *debug.BuildInfo, version string, t target, src source, sum [32]byte) *cdx.BOM {
	purl := func(path, v string) string { return "pkg:golang/" + path + "@" + v }
	mainRef := purl(info.Main.Path, version) + "?goos=" + t.OS + "&goarch=" + t.Arch
	main := cdx.Component{
		BOMRef: mainRef, Type: cdx.ComponentTypeApplication, Name: info.Main.Path, Version: version,
		PackageURL: mainRef,
		Hashes:     &[]cdx.Hash{{Algorithm: cdx.HashAlgoSHA256, Value: fmt.Sprintf("%x", sum)}},
		Properties: &[]cdx.Property{
			{Name: "vcs.revision", Value: src.revision},
			{Name: "vcs.time", Value: src.time.Format(time.RFC3339)},
			{Name: "vcs.modified", Value: fmt.Sprint(src.modified)},
			{Name: "GOOS", Value: t.OS}, {Name: "GOARCH", Value: t.Arch},
		},
	}
	for _, s := range info.Settings {
		*main.Properties = append(*main.Properties, cdx.Property{Name: "go.build." + s.Key, Value: s.Value})
	}
	stdRef := purl("stdlib", info.GoVersion)
	components := []cdx.Component{{BOMRef: stdRef, Type: cdx.ComponentTypeLibrary, Name: "stdlib", Version: info.GoVersion, PackageURL: stdRef}}
	dependsOn := []string{stdRef}
	for _, m := range info.Deps {
		if m.Replace != nil {
			m = m.Replace
		}
		ref := purl(m.Path, m.Version)
		c := cdx.Component{BOMRef: ref, Type: cdx.ComponentTypeLibrary, Name: m.Path, Version: m.Version, PackageURL: ref}
		if m.Sum != "" {
			c.Properties = &[]cdx.Property{{Name: "go.sum", Value: m.Sum}}
		}
		components = append(components, c)
		dependsOn = append(dependsOn, ref)
	}
	return &cdx.BOM{
		JSONSchema:   "http://cyclonedx.org/schema/bom-1.6.schema.json",
		BOMFormat:    cdx.BOMFormat,
		SpecVersion:  cdx.SpecVersion1_6,
		SerialNumber: "urn:uuid:" + uuidOf(sum),
		Version:      1,
		Metadata:     &cdx.Metadata{Timestamp: src.time.Format(time.RFC3339), Component: &main},
		Components:   &components,
		Dependencies: &[]cdx.Dependency{{Ref: mainRef, Dependencies: &dependsOn}},
	}
}

// uuidOf formats the first 16 bytes of sum as a UUID (version 8, "custom",
// RFC 9562 §5.8): a serial number that only this binary's BOM has.
func uuidOf(sum [32]byte) string {
	b := sum[:16]
	b[6] = b[6]&0x0f | 0x80
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
