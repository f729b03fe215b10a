// Package deploy holds the container image recipe (Dockerfile) and the
// systemd unit (icegate.service); its tests check them as far as a
// machine without a container engine can.
package deploy
