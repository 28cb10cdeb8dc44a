/**
 * Cities that become city pages, users' hometowns and locations. The locale and UTC offset of a
 * city give the users who live there a plausible `locale` and `timezone`.
 */

export interface City {
  name: string;
  region: string;
  country: string;
  locale: string;
  /** Hours from UTC, as the user `timezone` field shows it. */
  timezone: number;
}

export const CITIES: readonly City[] = [
  { name: 'Portland', region: 'Oregon', country: 'United States', locale: 'en_US', timezone: -8 },
  { name: 'Seattle', region: 'Washington', country: 'United States', locale: 'en_US', timezone: -8 },
  { name: 'Sacramento', region: 'California', country: 'United States', locale: 'en_US', timezone: -8 },
  { name: 'San Diego', region: 'California', country: 'United States', locale: 'en_US', timezone: -8 },
  { name: 'Denver', region: 'Colorado', country: 'United States', locale: 'en_US', timezone: -7 },
  { name: 'Tucson', region: 'Arizona', country: 'United States', locale: 'en_US', timezone: -7 },
  { name: 'Austin', region: 'Texas', country: 'United States', locale: 'en_US', timezone: -6 },
  { name: 'Madison', region: 'Wisconsin', country: 'United States', locale: 'en_US', timezone: -6 },
  { name: 'Minneapolis', region: 'Minnesota', country: 'United States', locale: 'en_US', timezone: -6 },
  { name: 'St. Louis', region: 'Missouri', country: 'United States', locale: 'en_US', timezone: -6 },
  { name: 'Nashville', region: 'Tennessee', country: 'United States', locale: 'en_US', timezone: -6 },
  { name: 'Atlanta', region: 'Georgia', country: 'United States', locale: 'en_US', timezone: -5 },
  { name: 'Pittsburgh', region: 'Pennsylvania', country: 'United States', locale: 'en_US', timezone: -5 },
  { name: 'Baltimore', region: 'Maryland', country: 'United States', locale: 'en_US', timezone: -5 },
  { name: 'Providence', region: 'Rhode Island', country: 'United States', locale: 'en_US', timezone: -5 },
  { name: 'Burlington', region: 'Vermont', country: 'United States', locale: 'en_US', timezone: -5 },
  { name: 'Toronto', region: 'Ontario', country: 'Canada', locale: 'en_US', timezone: -5 },
  { name: 'Halifax', region: 'Nova Scotia', country: 'Canada', locale: 'en_US', timezone: -4 },
  { name: 'Leeds', region: 'England', country: 'United Kingdom', locale: 'en_GB', timezone: 0 },
  { name: 'Bristol', region: 'England', country: 'United Kingdom', locale: 'en_GB', timezone: 0 },
  { name: 'Glasgow', region: 'Scotland', country: 'United Kingdom', locale: 'en_GB', timezone: 0 },
  { name: 'Cork', region: 'Munster', country: 'Ireland', locale: 'en_GB', timezone: 0 },
  { name: 'Lisbon', region: 'Lisboa', country: 'Portugal', locale: 'pt_PT', timezone: 0 },
  { name: 'Lyon', region: 'Auvergne-Rhône-Alpes', country: 'France', locale: 'fr_FR', timezone: 1 },
  { name: 'Nantes', region: 'Pays de la Loire', country: 'France', locale: 'fr_FR', timezone: 1 },
  { name: 'Leipzig', region: 'Saxony', country: 'Germany', locale: 'de_DE', timezone: 1 },
  { name: 'Freiburg', region: 'Baden-Württemberg', country: 'Germany', locale: 'de_DE', timezone: 1 },
  { name: 'Valencia', region: 'Valencian Community', country: 'Spain', locale: 'es_ES', timezone: 1 },
  { name: 'Utrecht', region: 'Utrecht', country: 'Netherlands', locale: 'nl_NL', timezone: 1 },
  { name: 'Melbourne', region: 'Victoria', country: 'Australia', locale: 'en_GB', timezone: 10 },
];

/** How a city page and a `{id, name}` reference name the city. */
export function cityLabel(city: City): string {
  return `${city.name}, ${city.region}`;
}
