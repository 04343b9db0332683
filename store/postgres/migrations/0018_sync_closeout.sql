-- An organisation's same-day close-out threshold (package closeout): the
-- exposure window of a property's channel calendars beyond which guests
-- arriving today are refused. No row: no close-out.
CREATE TABLE sync_closeout (
    org_id               bigint PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    max_exposure_seconds bigint NOT NULL CHECK (max_exposure_seconds > 0)
);
