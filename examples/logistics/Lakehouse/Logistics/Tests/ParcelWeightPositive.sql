/*
Test ID: ParcelWeightPositive

Description: Every live parcel has a positive weight.

Severity: warning
*/
select parcel_id, weight_kg
from Parcel.Current
where weight_kg <= 0;
