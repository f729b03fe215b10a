package syscat

// informationSchemaDefs returns PostgreSQL 15's information_schema relations:
// names, OIDs, kinds and columns (domains as their base types), read from
// the reference server's pg_class and pg_attribute. TestInformationSchemaMatchesPostgres
// checks them against a live server.
func informationSchemaDefs() []infoDef {
	return []infoDef{
		{Name: "administrable_role_authorizations", OID: 13241, Kind: 'v', Columns: isCols(
			"grantee", sqlIdentifier, "role_name", sqlIdentifier, "is_grantable", yesOrNo)},
		{Name: "applicable_roles", OID: 13236, Kind: 'v', Columns: isCols(
			"grantee", sqlIdentifier, "role_name", sqlIdentifier, "is_grantable", yesOrNo)},
		{Name: "attributes", OID: 13245, Kind: 'v', Columns: isCols(
			"udt_catalog", sqlIdentifier, "udt_schema", sqlIdentifier, "udt_name", sqlIdentifier,
			"attribute_name", sqlIdentifier, "ordinal_position", cardinalNumber,
			"attribute_default", characterData, "is_nullable", yesOrNo, "data_type", characterData,
			"character_maximum_length", cardinalNumber, "character_octet_length", cardinalNumber,
			"character_set_catalog", sqlIdentifier, "character_set_schema", sqlIdentifier,
			"character_set_name", sqlIdentifier, "collation_catalog", sqlIdentifier,
			"collation_schema", sqlIdentifier, "collation_name", sqlIdentifier,
			"numeric_precision", cardinalNumber, "numeric_precision_radix", cardinalNumber,
			"numeric_scale", cardinalNumber, "datetime_precision", cardinalNumber,
			"interval_type", characterData, "interval_precision", cardinalNumber,
			"attribute_udt_catalog", sqlIdentifier, "attribute_udt_schema", sqlIdentifier,
			"attribute_udt_name", sqlIdentifier, "scope_catalog", sqlIdentifier, "scope_schema", sqlIdentifier,
			"scope_name", sqlIdentifier, "maximum_cardinality", cardinalNumber, "dtd_identifier", sqlIdentifier,
			"is_derived_reference_attribute", yesOrNo)},
		{Name: "character_sets", OID: 13250, Kind: 'v', Columns: isCols(
			"character_set_catalog", sqlIdentifier, "character_set_schema", sqlIdentifier,
			"character_set_name", sqlIdentifier, "character_repertoire", sqlIdentifier,
			"form_of_use", sqlIdentifier, "default_collate_catalog", sqlIdentifier,
			"default_collate_schema", sqlIdentifier, "default_collate_name", sqlIdentifier)},
		{Name: "check_constraint_routine_usage", OID: 13255, Kind: 'v', Columns: isCols(
			"constraint_catalog", sqlIdentifier, "constraint_schema", sqlIdentifier,
			"constraint_name", sqlIdentifier, "specific_catalog", sqlIdentifier,
			"specific_schema", sqlIdentifier, "specific_name", sqlIdentifier)},
		{Name: "check_constraints", OID: 13260, Kind: 'v', Columns: isCols(
			"constraint_catalog", sqlIdentifier, "constraint_schema", sqlIdentifier,
			"constraint_name", sqlIdentifier, "check_clause", characterData)},
		{Name: "collation_character_set_applicability", OID: 13270, Kind: 'v', Columns: isCols(
			"collation_catalog", sqlIdentifier, "collation_schema", sqlIdentifier,
			"collation_name", sqlIdentifier, "character_set_catalog", sqlIdentifier,
			"character_set_schema", sqlIdentifier, "character_set_name", sqlIdentifier)},
		{Name: "collations", OID: 13265, Kind: 'v', Columns: isCols(
			"collation_catalog", sqlIdentifier, "collation_schema", sqlIdentifier,
			"collation_name", sqlIdentifier, "pad_attribute", characterData)},
		{Name: "column_column_usage", OID: 13275, Kind: 'v', Columns: isCols(
			"table_catalog", sqlIdentifier, "table_schema", sqlIdentifier, "table_name", sqlIdentifier,
			"column_name", sqlIdentifier, "dependent_column", sqlIdentifier)},
		{Name: "column_domain_usage", OID: 13280, Kind: 'v', Columns: isCols(
			"domain_catalog", sqlIdentifier, "domain_schema", sqlIdentifier, "domain_name", sqlIdentifier,
			"table_catalog", sqlIdentifier, "table_schema", sqlIdentifier, "table_name", sqlIdentifier,
			"column_name", sqlIdentifier)},
		{Name: "column_options", OID: 13503, Kind: 'v', Columns: isCols(
			"table_catalog", sqlIdentifier, "table_schema", sqlIdentifier, "table_name", sqlIdentifier,
			"column_name", sqlIdentifier, "option_name", sqlIdentifier, "option_value", characterData)},
		{Name: "column_privileges", OID: 13285, Kind: 'v', Columns: isCols(
			"grantor", sqlIdentifier, "grantee", sqlIdentifier, "table_catalog", sqlIdentifier,
			"table_schema", sqlIdentifier, "table_name", sqlIdentifier, "column_name", sqlIdentifier,
			"privilege_type", characterData, "is_grantable", yesOrNo)},
		{Name: "column_udt_usage", OID: 13290, Kind: 'v', Columns: isCols(
			"udt_catalog", sqlIdentifier, "udt_schema", sqlIdentifier, "udt_name", sqlIdentifier,
			"table_catalog", sqlIdentifier, "table_schema", sqlIdentifier, "table_name", sqlIdentifier,
			"column_name", sqlIdentifier)},
		{Name: "columns", OID: 13295, Kind: 'v', Columns: isCols(
			"table_catalog", sqlIdentifier, "table_schema", sqlIdentifier, "table_name", sqlIdentifier,
			"column_name", sqlIdentifier, "ordinal_position", cardinalNumber, "column_default", characterData,
			"is_nullable", yesOrNo, "data_type", characterData, "character_maximum_length", cardinalNumber,
			"character_octet_length", cardinalNumber, "numeric_precision", cardinalNumber,
			"numeric_precision_radix", cardinalNumber, "numeric_scale", cardinalNumber,
			"datetime_precision", cardinalNumber, "interval_type", characterData,
			"interval_precision", cardinalNumber, "character_set_catalog", sqlIdentifier,
			"character_set_schema", sqlIdentifier, "character_set_name", sqlIdentifier,
			"collation_catalog", sqlIdentifier, "collation_schema", sqlIdentifier,
			"collation_name", sqlIdentifier, "domain_catalog", sqlIdentifier, "domain_schema", sqlIdentifier,
			"domain_name", sqlIdentifier, "udt_catalog", sqlIdentifier, "udt_schema", sqlIdentifier,
			"udt_name", sqlIdentifier, "scope_catalog", sqlIdentifier, "scope_schema", sqlIdentifier,
			"scope_name", sqlIdentifier, "maximum_cardinality", cardinalNumber, "dtd_identifier", sqlIdentifier,
			"is_self_referencing", yesOrNo, "is_identity", yesOrNo, "identity_generation", characterData,
			"identity_start", characterData, "identity_increment", characterData,
			"identity_maximum", characterData, "identity_minimum", characterData, "identity_cycle", yesOrNo,
			"is_generated", characterData, "generation_expression", characterData, "is_updatable", yesOrNo)},
		{Name: "constraint_column_usage", OID: 13300, Kind: 'v', Columns: isCols(
			"table_catalog", sqlIdentifier, "table_schema", sqlIdentifier, "table_name", sqlIdentifier,
			"column_name", sqlIdentifier, "constraint_catalog", sqlIdentifier,
			"constraint_schema", sqlIdentifier, "constraint_name", sqlIdentifier)},
		{Name: "constraint_table_usage", OID: 13305, Kind: 'v', Columns: isCols(
			"table_catalog", sqlIdentifier, "table_schema", sqlIdentifier, "table_name", sqlIdentifier,
			"constraint_catalog", sqlIdentifier, "constraint_schema", sqlIdentifier,
			"constraint_name", sqlIdentifier)},
		{Name: "data_type_privileges", OID: 13488, Kind: 'v', Columns: isCols(
			"object_catalog", sqlIdentifier, "object_schema", sqlIdentifier, "object_name", sqlIdentifier,
			"object_type", characterData, "dtd_identifier", sqlIdentifier)},
		{Name: "domain_constraints", OID: 13310, Kind: 'v', Columns: isCols(
			"constraint_catalog", sqlIdentifier, "constraint_schema", sqlIdentifier,
			"constraint_name", sqlIdentifier, "domain_catalog", sqlIdentifier, "domain_schema", sqlIdentifier,
			"domain_name", sqlIdentifier, "is_deferrable", yesOrNo, "initially_deferred", yesOrNo)},
		{Name: "domain_udt_usage", OID: 13315, Kind: 'v', Columns: isCols(
			"udt_catalog", sqlIdentifier, "udt_schema", sqlIdentifier, "udt_name", sqlIdentifier,
			"domain_catalog", sqlIdentifier, "domain_schema", sqlIdentifier, "domain_name", sqlIdentifier)},
		{Name: "domains", OID: 13320, Kind: 'v', Columns: isCols(
			"domain_catalog", sqlIdentifier, "domain_schema", sqlIdentifier, "domain_name", sqlIdentifier,
			"data_type", characterData, "character_maximum_length", cardinalNumber,
			"character_octet_length", cardinalNumber, "character_set_catalog", sqlIdentifier,
			"character_set_schema", sqlIdentifier, "character_set_name", sqlIdentifier,
			"collation_catalog", sqlIdentifier, "collation_schema", sqlIdentifier,
			"collation_name", sqlIdentifier, "numeric_precision", cardinalNumber,
			"numeric_precision_radix", cardinalNumber, "numeric_scale", cardinalNumber,
			"datetime_precision", cardinalNumber, "interval_type", characterData,
			"interval_precision", cardinalNumber, "domain_default", characterData, "udt_catalog", sqlIdentifier,
			"udt_schema", sqlIdentifier, "udt_name", sqlIdentifier, "scope_catalog", sqlIdentifier,
			"scope_schema", sqlIdentifier, "scope_name", sqlIdentifier, "maximum_cardinality", cardinalNumber,
			"dtd_identifier", sqlIdentifier)},
		{Name: "element_types", OID: 13493, Kind: 'v', Columns: isCols(
			"object_catalog", sqlIdentifier, "object_schema", sqlIdentifier, "object_name", sqlIdentifier,
			"object_type", characterData, "collection_type_identifier", sqlIdentifier,
			"data_type", characterData, "character_maximum_length", cardinalNumber,
			"character_octet_length", cardinalNumber, "character_set_catalog", sqlIdentifier,
			"character_set_schema", sqlIdentifier, "character_set_name", sqlIdentifier,
			"collation_catalog", sqlIdentifier, "collation_schema", sqlIdentifier,
			"collation_name", sqlIdentifier, "numeric_precision", cardinalNumber,
			"numeric_precision_radix", cardinalNumber, "numeric_scale", cardinalNumber,
			"datetime_precision", cardinalNumber, "interval_type", characterData,
			"interval_precision", cardinalNumber, "domain_default", characterData, "udt_catalog", sqlIdentifier,
			"udt_schema", sqlIdentifier, "udt_name", sqlIdentifier, "scope_catalog", sqlIdentifier,
			"scope_schema", sqlIdentifier, "scope_name", sqlIdentifier, "maximum_cardinality", cardinalNumber,
			"dtd_identifier", sqlIdentifier)},
		{Name: "enabled_roles", OID: 13325, Kind: 'v', Columns: isCols(
			"role_name", sqlIdentifier)},
		{Name: "foreign_data_wrapper_options", OID: 13511, Kind: 'v', Columns: isCols(
			"foreign_data_wrapper_catalog", sqlIdentifier, "foreign_data_wrapper_name", sqlIdentifier,
			"option_name", sqlIdentifier, "option_value", characterData)},
		{Name: "foreign_data_wrappers", OID: 13515, Kind: 'v', Columns: isCols(
			"foreign_data_wrapper_catalog", sqlIdentifier, "foreign_data_wrapper_name", sqlIdentifier,
			"authorization_identifier", sqlIdentifier, "library_name", characterData,
			"foreign_data_wrapper_language", characterData)},
		{Name: "foreign_server_options", OID: 13524, Kind: 'v', Columns: isCols(
			"foreign_server_catalog", sqlIdentifier, "foreign_server_name", sqlIdentifier,
			"option_name", sqlIdentifier, "option_value", characterData)},
		{Name: "foreign_servers", OID: 13528, Kind: 'v', Columns: isCols(
			"foreign_server_catalog", sqlIdentifier, "foreign_server_name", sqlIdentifier,
			"foreign_data_wrapper_catalog", sqlIdentifier, "foreign_data_wrapper_name", sqlIdentifier,
			"foreign_server_type", characterData, "foreign_server_version", characterData,
			"authorization_identifier", sqlIdentifier)},
		{Name: "foreign_table_options", OID: 13537, Kind: 'v', Columns: isCols(
			"foreign_table_catalog", sqlIdentifier, "foreign_table_schema", sqlIdentifier,
			"foreign_table_name", sqlIdentifier, "option_name", sqlIdentifier, "option_value", characterData)},
		{Name: "foreign_tables", OID: 13541, Kind: 'v', Columns: isCols(
			"foreign_table_catalog", sqlIdentifier, "foreign_table_schema", sqlIdentifier,
			"foreign_table_name", sqlIdentifier, "foreign_server_catalog", sqlIdentifier,
			"foreign_server_name", sqlIdentifier)},
		{Name: "information_schema_catalog_name", OID: 13227, Kind: 'v', Columns: isCols(
			"catalog_name", sqlIdentifier)},
		{Name: "key_column_usage", OID: 13329, Kind: 'v', Columns: isCols(
			"constraint_catalog", sqlIdentifier, "constraint_schema", sqlIdentifier,
			"constraint_name", sqlIdentifier, "table_catalog", sqlIdentifier, "table_schema", sqlIdentifier,
			"table_name", sqlIdentifier, "column_name", sqlIdentifier, "ordinal_position", cardinalNumber,
			"position_in_unique_constraint", cardinalNumber)},
		{Name: "parameters", OID: 13334, Kind: 'v', Columns: isCols(
			"specific_catalog", sqlIdentifier, "specific_schema", sqlIdentifier, "specific_name", sqlIdentifier,
			"ordinal_position", cardinalNumber, "parameter_mode", characterData, "is_result", yesOrNo,
			"as_locator", yesOrNo, "parameter_name", sqlIdentifier, "data_type", characterData,
			"character_maximum_length", cardinalNumber, "character_octet_length", cardinalNumber,
			"character_set_catalog", sqlIdentifier, "character_set_schema", sqlIdentifier,
			"character_set_name", sqlIdentifier, "collation_catalog", sqlIdentifier,
			"collation_schema", sqlIdentifier, "collation_name", sqlIdentifier,
			"numeric_precision", cardinalNumber, "numeric_precision_radix", cardinalNumber,
			"numeric_scale", cardinalNumber, "datetime_precision", cardinalNumber,
			"interval_type", characterData, "interval_precision", cardinalNumber, "udt_catalog", sqlIdentifier,
			"udt_schema", sqlIdentifier, "udt_name", sqlIdentifier, "scope_catalog", sqlIdentifier,
			"scope_schema", sqlIdentifier, "scope_name", sqlIdentifier, "maximum_cardinality", cardinalNumber,
			"dtd_identifier", sqlIdentifier, "parameter_default", characterData)},
		{Name: "referential_constraints", OID: 13339, Kind: 'v', Columns: isCols(
			"constraint_catalog", sqlIdentifier, "constraint_schema", sqlIdentifier,
			"constraint_name", sqlIdentifier, "unique_constraint_catalog", sqlIdentifier,
			"unique_constraint_schema", sqlIdentifier, "unique_constraint_name", sqlIdentifier,
			"match_option", characterData, "update_rule", characterData, "delete_rule", characterData)},
		{Name: "role_column_grants", OID: 13344, Kind: 'v', Columns: isCols(
			"grantor", sqlIdentifier, "grantee", sqlIdentifier, "table_catalog", sqlIdentifier,
			"table_schema", sqlIdentifier, "table_name", sqlIdentifier, "column_name", sqlIdentifier,
			"privilege_type", characterData, "is_grantable", yesOrNo)},
		{Name: "role_routine_grants", OID: 13358, Kind: 'v', Columns: isCols(
			"grantor", sqlIdentifier, "grantee", sqlIdentifier, "specific_catalog", sqlIdentifier,
			"specific_schema", sqlIdentifier, "specific_name", sqlIdentifier, "routine_catalog", sqlIdentifier,
			"routine_schema", sqlIdentifier, "routine_name", sqlIdentifier, "privilege_type", characterData,
			"is_grantable", yesOrNo)},
		{Name: "role_table_grants", OID: 13421, Kind: 'v', Columns: isCols(
			"grantor", sqlIdentifier, "grantee", sqlIdentifier, "table_catalog", sqlIdentifier,
			"table_schema", sqlIdentifier, "table_name", sqlIdentifier, "privilege_type", characterData,
			"is_grantable", yesOrNo, "with_hierarchy", yesOrNo)},
		{Name: "role_udt_grants", OID: 13450, Kind: 'v', Columns: isCols(
			"grantor", sqlIdentifier, "grantee", sqlIdentifier, "udt_catalog", sqlIdentifier,
			"udt_schema", sqlIdentifier, "udt_name", sqlIdentifier, "privilege_type", characterData,
			"is_grantable", yesOrNo)},
		{Name: "role_usage_grants", OID: 13459, Kind: 'v', Columns: isCols(
			"grantor", sqlIdentifier, "grantee", sqlIdentifier, "object_catalog", sqlIdentifier,
			"object_schema", sqlIdentifier, "object_name", sqlIdentifier, "object_type", characterData,
			"privilege_type", characterData, "is_grantable", yesOrNo)},
		{Name: "routine_column_usage", OID: 13348, Kind: 'v', Columns: isCols(
			"specific_catalog", sqlIdentifier, "specific_schema", sqlIdentifier, "specific_name", sqlIdentifier,
			"routine_catalog", sqlIdentifier, "routine_schema", sqlIdentifier, "routine_name", sqlIdentifier,
			"table_catalog", sqlIdentifier, "table_schema", sqlIdentifier, "table_name", sqlIdentifier,
			"column_name", sqlIdentifier)},
		{Name: "routine_privileges", OID: 13353, Kind: 'v', Columns: isCols(
			"grantor", sqlIdentifier, "grantee", sqlIdentifier, "specific_catalog", sqlIdentifier,
			"specific_schema", sqlIdentifier, "specific_name", sqlIdentifier, "routine_catalog", sqlIdentifier,
			"routine_schema", sqlIdentifier, "routine_name", sqlIdentifier, "privilege_type", characterData,
			"is_grantable", yesOrNo)},
		{Name: "routine_routine_usage", OID: 13362, Kind: 'v', Columns: isCols(
			"specific_catalog", sqlIdentifier, "specific_schema", sqlIdentifier, "specific_name", sqlIdentifier,
			"routine_catalog", sqlIdentifier, "routine_schema", sqlIdentifier, "routine_name", sqlIdentifier)},
		{Name: "routine_sequence_usage", OID: 13367, Kind: 'v', Columns: isCols(
			"specific_catalog", sqlIdentifier, "specific_schema", sqlIdentifier, "specific_name", sqlIdentifier,
			"routine_catalog", sqlIdentifier, "routine_schema", sqlIdentifier, "routine_name", sqlIdentifier,
			"sequence_catalog", sqlIdentifier, "sequence_schema", sqlIdentifier, "sequence_name", sqlIdentifier)},
		{Name: "routine_table_usage", OID: 13372, Kind: 'v', Columns: isCols(
			"specific_catalog", sqlIdentifier, "specific_schema", sqlIdentifier, "specific_name", sqlIdentifier,
			"routine_catalog", sqlIdentifier, "routine_schema", sqlIdentifier, "routine_name", sqlIdentifier,
			"table_catalog", sqlIdentifier, "table_schema", sqlIdentifier, "table_name", sqlIdentifier)},
		{Name: "routines", OID: 13377, Kind: 'v', Columns: isCols(
			"specific_catalog", sqlIdentifier, "specific_schema", sqlIdentifier, "specific_name", sqlIdentifier,
			"routine_catalog", sqlIdentifier, "routine_schema", sqlIdentifier, "routine_name", sqlIdentifier,
			"routine_type", characterData, "module_catalog", sqlIdentifier, "module_schema", sqlIdentifier,
			"module_name", sqlIdentifier, "udt_catalog", sqlIdentifier, "udt_schema", sqlIdentifier,
			"udt_name", sqlIdentifier, "data_type", characterData, "character_maximum_length", cardinalNumber,
			"character_octet_length", cardinalNumber, "character_set_catalog", sqlIdentifier,
			"character_set_schema", sqlIdentifier, "character_set_name", sqlIdentifier,
			"collation_catalog", sqlIdentifier, "collation_schema", sqlIdentifier,
			"collation_name", sqlIdentifier, "numeric_precision", cardinalNumber,
			"numeric_precision_radix", cardinalNumber, "numeric_scale", cardinalNumber,
			"datetime_precision", cardinalNumber, "interval_type", characterData,
			"interval_precision", cardinalNumber, "type_udt_catalog", sqlIdentifier,
			"type_udt_schema", sqlIdentifier, "type_udt_name", sqlIdentifier, "scope_catalog", sqlIdentifier,
			"scope_schema", sqlIdentifier, "scope_name", sqlIdentifier, "maximum_cardinality", cardinalNumber,
			"dtd_identifier", sqlIdentifier, "routine_body", characterData, "routine_definition", characterData,
			"external_name", characterData, "external_language", characterData, "parameter_style", characterData,
			"is_deterministic", yesOrNo, "sql_data_access", characterData, "is_null_call", yesOrNo,
			"sql_path", characterData, "schema_level_routine", yesOrNo,
			"max_dynamic_result_sets", cardinalNumber, "is_user_defined_cast", yesOrNo,
			"is_implicitly_invocable", yesOrNo, "security_type", characterData,
			"to_sql_specific_catalog", sqlIdentifier, "to_sql_specific_schema", sqlIdentifier,
			"to_sql_specific_name", sqlIdentifier, "as_locator", yesOrNo, "created", timeStamp,
			"last_altered", timeStamp, "new_savepoint_level", yesOrNo, "is_udt_dependent", yesOrNo,
			"result_cast_from_data_type", characterData, "result_cast_as_locator", yesOrNo,
			"result_cast_char_max_length", cardinalNumber, "result_cast_char_octet_length", cardinalNumber,
			"result_cast_char_set_catalog", sqlIdentifier, "result_cast_char_set_schema", sqlIdentifier,
			"result_cast_char_set_name", sqlIdentifier, "result_cast_collation_catalog", sqlIdentifier,
			"result_cast_collation_schema", sqlIdentifier, "result_cast_collation_name", sqlIdentifier,
			"result_cast_numeric_precision", cardinalNumber,
			"result_cast_numeric_precision_radix", cardinalNumber, "result_cast_numeric_scale", cardinalNumber,
			"result_cast_datetime_precision", cardinalNumber, "result_cast_interval_type", characterData,
			"result_cast_interval_precision", cardinalNumber, "result_cast_type_udt_catalog", sqlIdentifier,
			"result_cast_type_udt_schema", sqlIdentifier, "result_cast_type_udt_name", sqlIdentifier,
			"result_cast_scope_catalog", sqlIdentifier, "result_cast_scope_schema", sqlIdentifier,
			"result_cast_scope_name", sqlIdentifier, "result_cast_maximum_cardinality", cardinalNumber,
			"result_cast_dtd_identifier", sqlIdentifier)},
		{Name: "schemata", OID: 13382, Kind: 'v', Columns: isCols(
			"catalog_name", sqlIdentifier, "schema_name", sqlIdentifier, "schema_owner", sqlIdentifier,
			"default_character_set_catalog", sqlIdentifier, "default_character_set_schema", sqlIdentifier,
			"default_character_set_name", sqlIdentifier, "sql_path", characterData)},
		{Name: "sequences", OID: 13386, Kind: 'v', Columns: isCols(
			"sequence_catalog", sqlIdentifier, "sequence_schema", sqlIdentifier, "sequence_name", sqlIdentifier,
			"data_type", characterData, "numeric_precision", cardinalNumber,
			"numeric_precision_radix", cardinalNumber, "numeric_scale", cardinalNumber,
			"start_value", characterData, "minimum_value", characterData, "maximum_value", characterData,
			"increment", characterData, "cycle_option", yesOrNo)},
		{Name: "sql_features", OID: 13391, Kind: 'r', Columns: isCols(
			"feature_id", characterData, "feature_name", characterData, "sub_feature_id", characterData,
			"sub_feature_name", characterData, "is_supported", yesOrNo, "is_verified_by", characterData,
			"comments", characterData)},
		{Name: "sql_implementation_info", OID: 13396, Kind: 'r', Columns: isCols(
			"implementation_info_id", characterData, "implementation_info_name", characterData,
			"integer_value", cardinalNumber, "character_value", characterData, "comments", characterData)},
		{Name: "sql_parts", OID: 13401, Kind: 'r', Columns: isCols(
			"feature_id", characterData, "feature_name", characterData, "is_supported", yesOrNo,
			"is_verified_by", characterData, "comments", characterData)},
		{Name: "sql_sizing", OID: 13406, Kind: 'r', Columns: isCols(
			"sizing_id", cardinalNumber, "sizing_name", characterData, "supported_value", cardinalNumber,
			"comments", characterData)},
		{Name: "table_constraints", OID: 13411, Kind: 'v', Columns: isCols(
			"constraint_catalog", sqlIdentifier, "constraint_schema", sqlIdentifier,
			"constraint_name", sqlIdentifier, "table_catalog", sqlIdentifier, "table_schema", sqlIdentifier,
			"table_name", sqlIdentifier, "constraint_type", characterData, "is_deferrable", yesOrNo,
			"initially_deferred", yesOrNo, "enforced", yesOrNo, "nulls_distinct", yesOrNo)},
		{Name: "table_privileges", OID: 13416, Kind: 'v', Columns: isCols(
			"grantor", sqlIdentifier, "grantee", sqlIdentifier, "table_catalog", sqlIdentifier,
			"table_schema", sqlIdentifier, "table_name", sqlIdentifier, "privilege_type", characterData,
			"is_grantable", yesOrNo, "with_hierarchy", yesOrNo)},
		{Name: "tables", OID: 13425, Kind: 'v', Columns: isCols(
			"table_catalog", sqlIdentifier, "table_schema", sqlIdentifier, "table_name", sqlIdentifier,
			"table_type", characterData, "self_referencing_column_name", sqlIdentifier,
			"reference_generation", characterData, "user_defined_type_catalog", sqlIdentifier,
			"user_defined_type_schema", sqlIdentifier, "user_defined_type_name", sqlIdentifier,
			"is_insertable_into", yesOrNo, "is_typed", yesOrNo, "commit_action", characterData)},
		{Name: "transforms", OID: 13430, Kind: 'v', Columns: isCols(
			"udt_catalog", sqlIdentifier, "udt_schema", sqlIdentifier, "udt_name", sqlIdentifier,
			"specific_catalog", sqlIdentifier, "specific_schema", sqlIdentifier, "specific_name", sqlIdentifier,
			"group_name", sqlIdentifier, "transform_type", characterData)},
		{Name: "triggered_update_columns", OID: 13435, Kind: 'v', Columns: isCols(
			"trigger_catalog", sqlIdentifier, "trigger_schema", sqlIdentifier, "trigger_name", sqlIdentifier,
			"event_object_catalog", sqlIdentifier, "event_object_schema", sqlIdentifier,
			"event_object_table", sqlIdentifier, "event_object_column", sqlIdentifier)},
		{Name: "triggers", OID: 13440, Kind: 'v', Columns: isCols(
			"trigger_catalog", sqlIdentifier, "trigger_schema", sqlIdentifier, "trigger_name", sqlIdentifier,
			"event_manipulation", characterData, "event_object_catalog", sqlIdentifier,
			"event_object_schema", sqlIdentifier, "event_object_table", sqlIdentifier,
			"action_order", cardinalNumber, "action_condition", characterData, "action_statement", characterData,
			"action_orientation", characterData, "action_timing", characterData,
			"action_reference_old_table", sqlIdentifier, "action_reference_new_table", sqlIdentifier,
			"action_reference_old_row", sqlIdentifier, "action_reference_new_row", sqlIdentifier,
			"created", timeStamp)},
		{Name: "udt_privileges", OID: 13445, Kind: 'v', Columns: isCols(
			"grantor", sqlIdentifier, "grantee", sqlIdentifier, "udt_catalog", sqlIdentifier,
			"udt_schema", sqlIdentifier, "udt_name", sqlIdentifier, "privilege_type", characterData,
			"is_grantable", yesOrNo)},
		{Name: "usage_privileges", OID: 13454, Kind: 'v', Columns: isCols(
			"grantor", sqlIdentifier, "grantee", sqlIdentifier, "object_catalog", sqlIdentifier,
			"object_schema", sqlIdentifier, "object_name", sqlIdentifier, "object_type", characterData,
			"privilege_type", characterData, "is_grantable", yesOrNo)},
		{Name: "user_defined_types", OID: 13463, Kind: 'v', Columns: isCols(
			"user_defined_type_catalog", sqlIdentifier, "user_defined_type_schema", sqlIdentifier,
			"user_defined_type_name", sqlIdentifier, "user_defined_type_category", characterData,
			"is_instantiable", yesOrNo, "is_final", yesOrNo, "ordering_form", characterData,
			"ordering_category", characterData, "ordering_routine_catalog", sqlIdentifier,
			"ordering_routine_schema", sqlIdentifier, "ordering_routine_name", sqlIdentifier,
			"reference_type", characterData, "data_type", characterData,
			"character_maximum_length", cardinalNumber, "character_octet_length", cardinalNumber,
			"character_set_catalog", sqlIdentifier, "character_set_schema", sqlIdentifier,
			"character_set_name", sqlIdentifier, "collation_catalog", sqlIdentifier,
			"collation_schema", sqlIdentifier, "collation_name", sqlIdentifier,
			"numeric_precision", cardinalNumber, "numeric_precision_radix", cardinalNumber,
			"numeric_scale", cardinalNumber, "datetime_precision", cardinalNumber,
			"interval_type", characterData, "interval_precision", cardinalNumber,
			"source_dtd_identifier", sqlIdentifier, "ref_dtd_identifier", sqlIdentifier)},
		{Name: "user_mapping_options", OID: 13550, Kind: 'v', Columns: isCols(
			"authorization_identifier", sqlIdentifier, "foreign_server_catalog", sqlIdentifier,
			"foreign_server_name", sqlIdentifier, "option_name", sqlIdentifier, "option_value", characterData)},
		{Name: "user_mappings", OID: 13555, Kind: 'v', Columns: isCols(
			"authorization_identifier", sqlIdentifier, "foreign_server_catalog", sqlIdentifier,
			"foreign_server_name", sqlIdentifier)},
		{Name: "view_column_usage", OID: 13468, Kind: 'v', Columns: isCols(
			"view_catalog", sqlIdentifier, "view_schema", sqlIdentifier, "view_name", sqlIdentifier,
			"table_catalog", sqlIdentifier, "table_schema", sqlIdentifier, "table_name", sqlIdentifier,
			"column_name", sqlIdentifier)},
		{Name: "view_routine_usage", OID: 13473, Kind: 'v', Columns: isCols(
			"table_catalog", sqlIdentifier, "table_schema", sqlIdentifier, "table_name", sqlIdentifier,
			"specific_catalog", sqlIdentifier, "specific_schema", sqlIdentifier, "specific_name", sqlIdentifier)},
		{Name: "view_table_usage", OID: 13478, Kind: 'v', Columns: isCols(
			"view_catalog", sqlIdentifier, "view_schema", sqlIdentifier, "view_name", sqlIdentifier,
			"table_catalog", sqlIdentifier, "table_schema", sqlIdentifier, "table_name", sqlIdentifier)},
		{Name: "views", OID: 13483, Kind: 'v', Columns: isCols(
			"table_catalog", sqlIdentifier, "table_schema", sqlIdentifier, "table_name", sqlIdentifier,
			"view_definition", characterData, "check_option", characterData, "is_updatable", yesOrNo,
			"is_insertable_into", yesOrNo, "is_trigger_updatable", yesOrNo, "is_trigger_deletable", yesOrNo,
			"is_trigger_insertable_into", yesOrNo)},
	}
}
