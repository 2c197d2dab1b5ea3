-- Trigram matching for the store and customer search indexes (drizzle-kit does not emit CREATE EXTENSION).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
