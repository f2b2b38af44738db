/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reasons that several rows of keys_setup.c, keys_conn.c and keys_end.c
 * share. A warning's reason says why ignoring the key is harmless; an
 * error's says what ikebana would do instead and what to write.
 */
#ifndef IKB_CONFIG_KEYS_REASONS_H
#define IKB_CONFIG_KEYS_REASONS_H

#define CORE CFG_V_CORE
#define NONE CFG_V_NONE
#define WARN CFG_V_WARN
#define ERROR CFG_V_ERROR

/* warnings */
#define R_LOG \
	"logging only: ikebana logs to logfile= or syslog, as plutodebug= says"
#define R_IKEV1 "IKEv1 only: ikebana speaks IKEv2 and never uses it"
#define R_XAUTH \
	"XAUTH is IKEv1 only: an IKEv2 peer never runs it, in libreswan either"
#define R_KLIPS \
	"KLIPS only: ikebana drives the kernel's XFRM stack, which has no KLIPS interface"
#define R_TUNING "pluto-internal tuning with no effect on what is negotiated"
#define R_OBSOLETE "obsolete: libreswan ignores it too"
#define R_NOCERT                                                            \
	"libcurl's setting: ikebana uses no curl (it fetches no CRLs, and " \
	"NSS's own HTTP client asks OCSP responders, within ocsp-timeout=)"
#define R_CRLFETCH                                                            \
	"ikebana fetches no CRLs: it uses those in the NSS database (import " \
	"them with crlutil -I), whenever they were put there"
#define R_REDIRECT                                                            \
	"ikebana sends no REDIRECT (RFC 5685): it serves the client itself, " \
	"with the same protection"
#define R_ROUTE                                                             \
	"only for the routes that libreswan's own updown or leftsourceip= " \
	"adds: ikebana adds none (leftsourceip= is an error) and does not " \
	"pass it to a leftupdown= script"
#define R_FAMILY                                                           \
	"ikebana takes the address family from the addresses and subnets " \
	"written (mixing families is an error)"
#define R_COSMETIC "cosmetic: ikebana sends no Vendor ID payload"

/* errors */
#define R_CERT                                                              \
	"raw keys other than leftrsasigkey= are not implemented by ikebana "  \
	"yet: it would neither use nor require this key; use a certificate " \
	"(leftcert=), leftrsasigkey= or a PSK in ikebana.secrets"
#define R_MODECFG                                                               \
	"the IKEv2 Configuration Payload (addresses, DNS, domains, banner) is " \
	"not implemented by ikebana yet: nothing would be asked for or handed " \
	"out; remove it and set the client's address, DNS and routes up "       \
	"outside ikebana"
#define R_VTI                                                                \
	"VTI interfaces are not implemented by ikebana: the conn would be "  \
	"policy-based, with no vti device and none of its routes; write "    \
	"ipsec-interface= for route-based IPsec over an XFRM interface, or " \
	"let leftsubnet= and rightsubnet= select the traffic"
#define R_LABEL                                                                   \
	"labeled IPsec (security labels) is not implemented by ikebana yet: the " \
	"SAs would carry no label and the kernel would enforce none; remove it"
#define R_PPK                                                               \
	"post-quantum preshared keys (RFC 8784) are not implemented by "    \
	"ikebana yet: the SAs would lack the protection against a quantum " \
	"computer asked for; write ppk=no, or remove the key"
#define R_PLUGIN(name, without)                                             \
	"needs the " name " plugin, which plugins= does not load: " without \
	"; add " name " to plugins="

#endif
