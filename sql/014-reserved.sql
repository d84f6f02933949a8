-- 014-reserved.sql -- nothing: the number is another change's, merged
-- beside this one; this file stands in for it until then so that the
-- migrations run 1..N without a gap.
SELECT 1;
