-- The registration number of a short-term rental (Regulation (EU)
-- 2024/1028), shown on its listings; '' when it has none (issue #29).
ALTER TABLE properties ADD COLUMN registration_number TEXT NOT NULL DEFAULT '';
