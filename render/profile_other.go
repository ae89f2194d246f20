//go:build !unix || solaris || aix

package render

import "os"

// claimProfile claims nothing where flock is not available: a profile
// left by a killed run stays (see profile_unix.go).
func claimProfile(string) (*os.File, error) { return nil, nil }

// sweepProfiles does nothing where flock is not available.
func sweepProfiles() {}
