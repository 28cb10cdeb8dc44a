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

/** The cities, as `[name, region]`, of one country and UTC offset, where users have the locale given. */
function citiesOf(country: string, locale: string, timezone: number, places: ReadonlyArray<readonly [string, string]>): City[] {
  return places.map(([name, region]) => ({ name, region, country, locale, timezone }));
}

export const CITIES: readonly City[] = [
  ...citiesOf('United States', 'en_US', -8, [['Portland', 'Oregon'], ['Seattle', 'Washington'], ['Sacramento', 'California'], ['San Diego', 'California']]),
  ...citiesOf('United States', 'en_US', -7, [['Denver', 'Colorado'], ['Tucson', 'Arizona']]),
  ...citiesOf('United States', 'en_US', -6, [['Austin', 'Texas'], ['Madison', 'Wisconsin'], ['Minneapolis', 'Minnesota'], ['St. Louis', 'Missouri'], ['Nashville', 'Tennessee']]),
  ...citiesOf('United States', 'en_US', -5, [['Atlanta', 'Georgia'], ['Pittsburgh', 'Pennsylvania'], ['Baltimore', 'Maryland'], ['Providence', 'Rhode Island'], ['Burlington', 'Vermont']]),
  ...citiesOf('Canada', 'en_US', -5, [['Toronto', 'Ontario']]),
  ...citiesOf('Canada', 'en_US', -4, [['Halifax', 'Nova Scotia']]),
  ...citiesOf('United Kingdom', 'en_GB', 0, [['Leeds', 'England'], ['Bristol', 'England'], ['Glasgow', 'Scotland']]),
  ...citiesOf('Ireland', 'en_GB', 0, [['Cork', 'Munster']]),
  ...citiesOf('Portugal', 'pt_PT', 0, [['Lisbon', 'Lisboa']]),
  ...citiesOf('France', 'fr_FR', 1, [['Lyon', 'Auvergne-Rhône-Alpes'], ['Nantes', 'Pays de la Loire']]),
  ...citiesOf('Germany', 'de_DE', 1, [['Leipzig', 'Saxony'], ['Freiburg', 'Baden-Württemberg']]),
  ...citiesOf('Spain', 'es_ES', 1, [['Valencia', 'Valencian Community']]),
  ...citiesOf('Netherlands', 'nl_NL', 1, [['Utrecht', 'Utrecht']]),
  ...citiesOf('Australia', 'en_GB', 10, [['Melbourne', 'Victoria']]),
];

/** How a city page and a `{id, name}` reference name the city. */
export function cityLabel(city: City): string {
  return `${city.name}, ${city.region}`;
}
