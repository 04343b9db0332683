// Package booking is staykit's domain: organisations, properties and
// bookings, the booking lifecycle, and Service, the use cases the public API
// and the host call. It defines the interfaces it needs from the outside
// world (the store seams of Stores, Clock, Notifier, and payment.Provider) and implements none of
// them; store/*, payment/* and the host do.
package booking
