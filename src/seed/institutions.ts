/** Invented schools, fields of study, employers and job titles; each becomes a page. */
import { phrases } from './word-lists.js';

export const HIGH_SCHOOLS = phrases(`
  Northfield High School | Riverside High School | Cedar Hollow High School | Lakeview Secondary School
  Westbrook Academy | Maple Ridge High School | Harbor Point High School | Greenway Collegiate
  St. Brendan's School | Eastgate Grammar School | Pinecrest High School | Sunnyvale Lyceum
  Hillcrest Gymnasium | Old Mill High School | Foxglove Community School | Stonebridge High School
`);

export const COLLEGES = phrases(`
  Riverbend University | Northgate College | University of Eastmere | Ashford State University
  Kingsley Institute of Technology | Westhaven University | Bramble Hill College | Coastal Plains University
  Halden University | Saint Aurelia College | Lowland Polytechnic | Meridian Arts College
  Thornfield University | Greyfriars College | Aldermoor University | Cascade Valley College
`);

export const GRADUATE_SCHOOLS = phrases(`
  Riverbend School of Law | Northgate Graduate School of Business | Eastmere Medical School
  Kingsley Graduate Institute | Halden School of Public Policy | Westhaven School of Design
`);

export const CONCENTRATIONS = phrases(`
  Computer Science | Mathematics | Biology | Chemistry | Economics | History | Philosophy | English Literature
  Architecture | Mechanical Engineering | Psychology | Nursing | Music | Graphic Design | Political Science
  Business Administration | Law | Medicine
`);

export const EMPLOYERS = phrases(`
  Bluefin Analytics | Copperleaf Bakery | Driftwood Media | Evergreen Health Partners | Fablewood Games
  Granite Peak Outfitters | Harborline Shipping | Ironbark Engineering | Juniper Software | Kestrel Airways
  Lanternfish Studio | Meadowlark Foods | Nimbus Cloudworks | Orchard Lane Schools | Pinwheel Toys
  Quarry & Co. Architects | Redwood Credit Union | Saltmarsh Energy | Tidewater Hospital | Upland Logistics
  Vantage Point Consulting | Willow Creek Library | Yarrow Pharmaceuticals | Zephyr Bicycles
`);

export const POSITIONS = phrases(`
  Software Engineer | Product Manager | Graphic Designer | Teacher | Nurse | Data Analyst | Accountant | Baker
  Pilot | Architect | Pharmacist | Librarian | Marketing Manager | Sales Associate | Logistics Coordinator
  Mechanical Engineer | Customer Support Lead | Research Scientist | Barista | Store Manager | Intern
`);

/** Classes people list with a school, by the kind of school (`education[].type`). */
export const CLASSES = {
  'High School': ['Freshman Homeroom', 'Junior Year Chemistry', 'Senior English Seminar', 'Varsity Debate', 'Jazz Band'],
  College: ['Introduction to Statistics', 'Writing Seminar', 'Research Methods', 'Senior Thesis Workshop', 'Field Study Abroad'],
  'Graduate School': ['Advanced Research Seminar', 'Teaching Practicum', 'Thesis Lab'],
} as const;
